//! The words for counting and naming a run's things: how many times, steps, units and ticks
//! (plurals), and a request, an attempt, a queued copy or a handler run by number.

use super::plural::Plural;
use super::topic::{Text, topic};

topic! {
    /// Counts and the names of a run's things.
    pub struct CountWords {
        // Counts.
        /// How many times, for 1 (`once`).
        times_once: Text { en: "once", ru: "один раз" },
        /// How many times, for 2 (`twice`).
        times_twice: Text { en: "twice", ru: "дважды" },
        /// How many times, any other count (`3 times`).
        times: Plural {
            en: Plural::en("{n} time", "{n} times"),
            ru: Plural::ru("{n} раз", "{n} раза", "{n} раз"),
        },
        /// A number of steps.
        steps: Plural {
            en: Plural::en("{n} step", "{n} steps"),
            ru: Plural::ru("{n} шаг", "{n} шага", "{n} шагов"),
        },
        /// A number of the learner's choices (the faults and actions they took in a run).
        choices: Plural {
            en: Plural::en("{n} choice of yours", "{n} choices of yours"),
            ru: Plural::ru("{n} ваше действие", "{n} ваших действия", "{n} ваших действий"),
        },
        /// A number of units of a sku (a reservation's quantity).
        units: Plural {
            en: Plural::en("{n} unit", "{n} units"),
            ru: Plural::ru("{n} единица", "{n} единицы", "{n} единиц"),
        },
        /// A number of ticks of the virtual clock.
        ticks: Plural {
            en: Plural::en("{n} tick", "{n} ticks"),
            ru: Plural::ru("{n} тик", "{n} тика", "{n} тиков"),
        },
        /// A number of cases of the fuzzer.
        cases: Plural {
            en: Plural::en("{n} case", "{n} cases"),
            ru: Plural::ru("{n} случай", "{n} случая", "{n} случаев"),
        },
        /// A number of states of the checker.
        states: Plural {
            en: Plural::en("{n} state", "{n} states"),
            ru: Plural::ru("{n} состояние", "{n} состояния", "{n} состояний"),
        },

        // Names of the run's things.
        /// A request of the scenario, by number.
        request_name: Text { en: "request {n}", ru: "запрос {n}" },
        /// A send of a request (its first attempt, a retry), by number.
        attempt_name: Text { en: "attempt {n}", ru: "попытка {n}" },
        /// A queued copy of a message, by number.
        entry_name: Text { en: "entry {n}", ru: "копия {n}" },
        /// A handler run under a key, by number.
        run_name: Text { en: "run {n}", ru: "запуск {n}" },
    }
}
