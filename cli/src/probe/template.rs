//! The body template: text with placeholders for the values that make each operation fresh.
//! `{{n}}` is the operation's number (1, 2, ...), `{{uuid}}` a UUID drawn for it from the
//! seed, `{{key}}` its idempotency key or event id. A key reused with another body renders
//! the same template with the other values of the operation ([`Values::other`]).

/// One placeholder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Placeholder {
    Number,
    Uuid,
    Key,
}

/// One piece of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Value(Placeholder),
}

/// A parsed body template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pieces: Vec<Piece>,
}

/// The values one rendering fills in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Values<'a> {
    /// `{{n}}`.
    pub number: u32,
    /// `{{uuid}}`.
    pub uuid: &'a str,
    /// `{{key}}`.
    pub key: &'a str,
}

impl Template {
    /// Parses `text`; an unknown or unclosed placeholder is an error naming it.
    pub fn parse(text: &str) -> Result<Template, String> {
        let mut pieces = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find("{{") {
            if open > 0 {
                pieces.push(Piece::Text(rest[..open].to_owned()));
            }
            let after = &rest[open + 2..];
            let Some(close) = after.find("}}") else {
                return Err("a {{ without its }}".to_owned());
            };
            let placeholder = match after[..close].trim() {
                "n" => Placeholder::Number,
                "uuid" => Placeholder::Uuid,
                "key" => Placeholder::Key,
                other => {
                    return Err(format!(
                        "unknown placeholder {{{{{other}}}}}; known: {{{{n}}}}, {{{{uuid}}}}, \
                         {{{{key}}}}"
                    ));
                }
            };
            pieces.push(Piece::Value(placeholder));
            rest = &after[close + 2..];
        }
        if !rest.is_empty() {
            pieces.push(Piece::Text(rest.to_owned()));
        }
        Ok(Template { pieces })
    }

    /// Whether two operations' bodies differ: the template holds `{{n}}` or `{{uuid}}`.
    pub fn varies(&self) -> bool {
        self.pieces.iter().any(|piece| {
            matches!(piece, Piece::Value(Placeholder::Number) | Piece::Value(Placeholder::Uuid))
        })
    }

    /// The body for `values`.
    pub fn render(&self, values: Values<'_>) -> String {
        let mut body = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => body.push_str(text),
                Piece::Value(Placeholder::Number) => body.push_str(&values.number.to_string()),
                Piece::Value(Placeholder::Uuid) => body.push_str(values.uuid),
                Piece::Value(Placeholder::Key) => body.push_str(values.key),
            }
        }
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(template: &str, expect: &str) {
        let actual = match Template::parse(template) {
            Ok(template) => template.render(Values { number: 7, uuid: "u-1", key: "k-1" }),
            Err(message) => format!("error: {message}"),
        };
        assert_eq!(actual, expect);
    }

    #[test]
    fn placeholders_are_filled_and_unknown_ones_named() {
        check(
            r#"{"n": {{n}}, "ref": "{{ uuid }}", "k": "{{key}}"}"#,
            r#"{"n": 7, "ref": "u-1", "k": "k-1"}"#,
        );
        check("plain", "plain");
        check(
            "{{amount}}",
            "error: unknown placeholder {{amount}}; known: {{n}}, {{uuid}}, {{key}}",
        );
        check("{{n", "error: a {{ without its }}");
    }
}
