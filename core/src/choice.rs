//! The names a scenario gives its choices: the Karmada and eru strategies, the division and
//! model methods, the estimators (the scenario format, docs/rules/README.md decision 8). Each
//! enum's names are listed once, beside the enum, through [`names!`]; its `ALL`, the "expected
//! one of" text of its errors, the schema's strategy list (the scenario's), the playground's selects and the fuzz
//! target's picks derive from that list, and a test holds docs/scenario.md and the fuzz
//! dictionary to it.

/// The names of an enum's variants, listed once: `ALL` (every variant, in the listed order),
/// `NAMES`, `LIST` (the names joined by ", ", as error messages list them), `name()` and
/// `named()`. `name()` matches every variant, so a variant left out of the list does not compile.
macro_rules! names {
    ($E:ident { $($V:ident => $name:literal),+ $(,)? }) => {
        impl $E {
            /// Every variant, in the order of [`Self::NAMES`].
            pub const ALL: [$E; <[&str]>::len(&[$($name),+])] = [$($E::$V),+];
            /// Every variant's name, as a scenario writes it.
            pub const NAMES: &'static [&'static str] = &[$($name),+];
            /// The names joined by ", ": what an error expects.
            pub const LIST: &'static str = $crate::choice::joined!($($name),+);

            /// The name a scenario writes.
            pub const fn name(self) -> &'static str {
                match self {
                    $($E::$V => $name,)+
                }
            }

            /// The variant of that name.
            pub fn named(name: &str) -> Option<$E> {
                match name {
                    $($name => Some($E::$V),)+
                    _ => None,
                }
            }
        }
    };
}

/// Literals joined by ", " at compile time.
macro_rules! joined {
    ($first:literal $(, $rest:literal)*) => {
        concat!($first $(, ", ", $rest)*)
    };
}

pub(crate) use {joined, names};

#[cfg(test)]
mod tests {
    use crate::division::method::Method;
    use crate::estimate::by_model::ModelMethod;
    use crate::scenario::Estimator;

    /// Serde writes each variant by the name the list gives it.
    fn serde_agrees<T: serde::Serialize + Copy>(all: &[T], names: &[&str]) {
        assert_eq!(all.len(), names.len());
        for (v, name) in all.iter().zip(names) {
            assert_eq!(serde_json::to_value(v).unwrap(), serde_json::json!(name));
        }
    }

    #[test]
    fn the_lists_are_the_names_serde_writes() {
        serde_agrees(&Method::ALL, Method::NAMES);
        serde_agrees(&ModelMethod::ALL, ModelMethod::NAMES);
        serde_agrees(&Estimator::ALL, Estimator::NAMES);
        serde_agrees(
            &crate::eru::strategy::Strategy::ALL,
            crate::eru::strategy::Strategy::NAMES,
        );
        assert_eq!(Method::LIST, "webster, remainder, name-order");
        assert_eq!(
            crate::karmada::Strategy::LIST,
            "duplicated, staticWeight, dynamicWeight, aggregated"
        );
        for m in Method::ALL {
            assert_eq!(Method::named(m.name()), Some(m));
        }
        assert_eq!(Method::named("Webster"), None);
    }
}
