//! What the rest of the core renders from the catalogue in Russian, pinned here because no
//! Russian is written outside `words/` (the tests' expectations included): actions and fault
//! buttons (`view::action_text`, `view::fault_button_text`), the invariants' and fault
//! classes' texts.

use crate::faults::FaultClass;
use crate::invariants::InvariantId;
use crate::sim::{Action, AttemptId, EntryId, HoldRelease, InstanceId, RequestIndex};
use crate::view::{action_text, fault_button_text};
use crate::words::{Language, is_cyrillic};

#[test]
fn actions_read_as_russian_sentences() {
    let cases = [
        (Action::ClientSend { request: RequestIndex(0) }, "клиент отправляет запрос 0"),
        (Action::ClientRetry { request: RequestIndex(1) }, "клиент повторяет запрос 1"),
        (Action::ApiStep { attempt: AttemptId(2) }, "API выполняет следующий оператор (попытка 2)"),
        (
            Action::ConsumerStep { instance: InstanceId(1) },
            "Консьюмер B выполняет следующий оператор",
        ),
        (
            Action::BrokerDeliver { entry: EntryId(0), instance: InstanceId(1) },
            "брокер доставляет копию 0 в Консьюмер B",
        ),
        (Action::AdvanceClock { ticks: 1 }, "часы идут вперёд: 1 тик"),
        (Action::AdvanceClock { ticks: 3 }, "часы идут вперёд: 3 тика"),
        (
            Action::HoldMessage { entry: EntryId(0), until: HoldRelease::Ticks { ticks: 25 } },
            "задержать копию 0 на 25 тиков",
        ),
    ];
    for (action, ru) in cases {
        assert_eq!(action_text(&action, Language::Ru), ru);
    }
}

#[test]
fn fault_buttons_name_the_fault_in_russian() {
    let hold = Action::HoldMessage { entry: EntryId(0), until: HoldRelease::Ticks { ticks: 20 } };
    assert_eq!(fault_button_text(&hold, Language::Ru), "Задержать на 20 тиков");
    let double = Action::DoubleSubmit { request: RequestIndex(0) };
    assert_eq!(fault_button_text(&double, Language::Ru), "Двойная отправка");
    let crash = Action::CrashApi { attempt: AttemptId(0) };
    assert_eq!(fault_button_text(&crash, Language::Ru), "Падение API");
}

#[test]
fn every_invariant_and_fault_has_a_russian_text_that_is_not_the_english_one() {
    let cyrillic = |text: &str| text.chars().any(is_cyrillic);
    for invariant in InvariantId::ALL {
        assert_eq!(invariant.title_in(Language::En), invariant.title());
        assert_eq!(invariant.description_in(Language::En), invariant.description());
        for (en, ru) in [
            (invariant.title(), invariant.title_in(Language::Ru)),
            (invariant.description(), invariant.description_in(Language::Ru)),
        ] {
            assert!(!ru.trim().is_empty(), "{invariant}");
            assert_ne!(en, ru, "{invariant}");
            assert!(cyrillic(ru), "{invariant}: {ru}");
        }
    }
    assert_eq!(InvariantId::I2.title_in(Language::Ru), "Одна резервация на строку заказа");
    for class in FaultClass::ALL {
        assert_eq!(class.description_in(Language::En), class.description());
        let ru = class.description_in(Language::Ru);
        assert_ne!(ru, class.description(), "{class}");
        assert!(cyrillic(ru), "{class}: {ru}");
    }
    assert_eq!(FaultClass::F1.description_in(Language::Ru), "брокер доставляет сообщение дважды");
}
