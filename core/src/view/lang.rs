//! The invariants' titles and descriptions and the fault classes' descriptions in each
//! [`Language`] (the languages and the catalogue of every other string are
//! [`crate::words`]; the lessons' texts are [`crate::view::lesson_text`]).
//!
//! A violation's sentence is rendered from its finding in any language
//! ([`crate::invariants::Violation::sentence_in`]); traces record the English one, so they
//! replay byte for byte whatever language the learner reads.

use crate::faults::FaultClass;
use crate::invariants::InvariantId;
pub use crate::words::{Language, UnknownLanguage};

impl InvariantId {
    /// [`InvariantId::title`] in `language`.
    pub fn title_in(self, language: Language) -> &'static str {
        match language {
            Language::En => self.title(),
            Language::Ru => match self {
                InvariantId::I1 => "Остаток сходится",
                InvariantId::I2 => "Одна резервация на строку заказа",
                InvariantId::I3 => "Оплата списана не больше одного раза",
                InvariantId::I4 => "Тот же ключ, тот же ответ",
                InvariantId::I5 => "Запись в Inbox ровно тогда, когда есть эффект",
                InvariantId::I6 => "Каждое OrderPlaced обработано один раз",
                InvariantId::I7 => "Никакого 5xx на дубль",
            },
        }
    }

    /// [`InvariantId::description`] in `language`.
    pub fn description_in(self, language: Language) -> &'static str {
        match language {
            Language::En => self.description(),
            Language::Ru => match self {
                InvariantId::I1 => {
                    "Для каждого sku остаток на складе равен доступному остатку плюс сумма его \
                     резерваций, и доступный остаток никогда не уходит ниже нуля."
                }
                InvariantId::I2 => {
                    "Не больше одного эффекта резервации на пару (заказ, sku): резервация никогда \
                     не держит больше, чем просит заказ, не уходит ниже нуля и существует только \
                     для существующего заказа, в котором есть строка с этим sku."
                }
                InvariantId::I3 => {
                    "Заказ оплачивается не больше одного раза, каждое списание относится к \
                     существующему заказу, а у заказа с платежом (оплаченного, отправленного или \
                     отменённого после оплаты) ровно одно списание, по этому платежу."
                }
                InvariantId::I4 => {
                    "Все завершённые запросы с одним и тем же ключом идемпотентности получили \
                     один и тот же статус и тело ответа, ответ ключа получали только запросы с \
                     теми же методом, путём и телом, на которые ключ ответил впервые (другой \
                     запрос с этим ключом получает 422), и обработчик ключа никогда не работал \
                     дважды, пока ключ был занят (арендой или незавершённым запуском без аренды)."
                }
                InvariantId::I5 => {
                    "Запись в Inbox есть ровно тогда, когда применён её эффект: у каждой записи \
                     Inbox есть закоммиченный эффект, не стёртый очисткой; у каждого эффекта \
                     консьюмера с Inbox есть своя запись, если её не удалила очистка по сроку \
                     хранения; и Inbox пропускает один эффект на запись."
                }
                InvariantId::I6 => {
                    "Когда работы не осталось, у каждого размещённого заказа есть сообщение \
                     OrderPlaced, и каждый консьюмер OrderPlaced обработал каждое такое \
                     сообщение ровно один раз."
                }
                InvariantId::I7 => {
                    "Ни один повторный запрос (ретрай, двойная отправка) не заставил API \
                     ответить статусом 5xx."
                }
            },
        }
    }
}

impl FaultClass {
    /// [`FaultClass::description`] in `language`.
    pub fn description_in(self, language: Language) -> &'static str {
        match language {
            Language::En => self.description(),
            Language::Ru => match self {
                FaultClass::F1 => "брокер доставляет сообщение дважды",
                FaultClass::F2 => {
                    "консьюмер падает после коммита, до подтверждения: повторная доставка"
                }
                FaultClass::F3 => "консьюмер падает до коммита: откат, повторная доставка",
                FaultClass::F4 => "два экземпляра консьюмера получают одно сообщение одновременно",
                FaultClass::F5 => "ответ API потерян: клиент повторяет запрос с тем же ключом",
                FaultClass::F6 => "двойная отправка: два параллельных запроса с одним ключом",
                FaultClass::F7 => "тот же ключ повторно использован с другим телом запроса",
                FaultClass::F8 => "API падает посреди запроса: ключ остаётся «в обработке»",
                FaultClass::F9 => "сообщения или запросы приходят не по порядку",
                FaultClass::F10 => "дубль приходит после окна хранения",
                FaultClass::F11 => "клиент повторяет запрос с новым ключом",
                FaultClass::F12 => "relay падает после публикации, до отметки «опубликовано»",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_invariant_and_fault_has_a_russian_text_that_is_not_the_english_one() {
        let cyrillic =
            |text: &str| text.chars().any(|c| matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё'));
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
        for class in FaultClass::ALL {
            assert_eq!(class.description_in(Language::En), class.description());
            let ru = class.description_in(Language::Ru);
            assert_ne!(ru, class.description(), "{class}");
            assert!(cyrillic(ru), "{class}: {ru}");
        }
    }
}
