//! Where a value sits in the input: a list of field names and list indexes
//! (`clusters`, `[2]`, `weight`), the location every [`crate::Error`] carries
//! (docs/rules/README.md decision 6).
//!
//! A path is data, built step by step where the input is read and prefixed by the caller that
//! knows the enclosing field ([`Path::within`]); it is written as text
//! (`clusters[2].weight`) only when shown.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// One step of a [`Path`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Step {
    /// A field of an object, or a key of a map (`weight`, `cpu`, `member1`).
    Field(Cow<'static, str>),
    /// An element of a list (`[2]`).
    Index(usize),
}

/// Where a value sits: `clusters[2].weight` is `[Field("clusters"), Index(2), Field("weight")]`.
/// The empty path is the document itself.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Path(Vec<Step>);

impl Path {
    /// The document itself.
    pub const fn root() -> Path {
        Path(Vec::new())
    }

    /// A path written in the code as it is shown: `Path::fields("policy.cpumem.shareBase")`,
    /// `Path::fields("resourceModels[1].ranges")`. Each dot-separated name is a field, each
    /// `[n]` an index; a bracket that does not hold a number stays part of the name.
    pub fn fields(written: &'static str) -> Path {
        let mut p = Path::root();
        if written.is_empty() {
            return p;
        }
        for part in written.split('.') {
            let (name, mut rest) = part.split_at(part.find('[').unwrap_or(part.len()));
            let mut indexes = Vec::new();
            while let Some(k) = rest
                .strip_prefix('[')
                .and_then(|r| r.split_once(']'))
                .and_then(|(k, r)| Some((k.parse::<usize>().ok()?, r)))
            {
                indexes.push(k.0);
                rest = k.1;
            }
            if !rest.is_empty() {
                // Not `name[n]...`: the whole part is one name.
                p.0.push(Step::Field(Cow::Borrowed(part)));
                continue;
            }
            if !name.is_empty() {
                p.0.push(Step::Field(Cow::Borrowed(name)));
            }
            p.0.extend(indexes.into_iter().map(Step::Index));
        }
        p
    }

    /// This path and then field (or map key) `name`.
    pub fn field(mut self, name: impl Into<Cow<'static, str>>) -> Path {
        self.0.push(Step::Field(name.into()));
        self
    }

    /// This path and then list element `index`.
    pub fn index(mut self, index: usize) -> Path {
        self.0.push(Step::Index(index));
        self
    }

    /// This path and then every step of `tail`.
    pub fn join(mut self, tail: &Path) -> Path {
        self.0.extend(tail.0.iter().cloned());
        self
    }

    /// `outer` and then this path (`weight` within `clusters[2]` is `clusters[2].weight`).
    pub fn within(self, outer: &Path) -> Path {
        outer.clone().join(&self)
    }

    /// The steps, outermost first.
    pub fn steps(&self) -> &[Step] {
        &self.0
    }

    /// Whether this is the document itself.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The path as text (`clusters[2].weight`).
    pub fn text(&self) -> String {
        alloc::format!("{self}")
    }

    /// The path packed into one string that [`Path::unpack`] reads back exactly, whatever the
    /// field names hold: each step is `.name` or `#index`, steps end with U+001E. For a value
    /// that checks itself while it is read and must say where inside it the problem is
    /// ([`crate::Error::into_de`]).
    pub(crate) fn packed(&self) -> String {
        let mut out = String::new();
        for step in &self.0 {
            match step {
                Step::Field(name) => {
                    out.push('.');
                    out.push_str(name);
                }
                Step::Index(k) => {
                    out.push('#');
                    out.push_str(&alloc::format!("{k}"));
                }
            }
            out.push(PACKED_END);
        }
        out
    }

    /// The path [`Path::packed`] wrote; `None` for any other text.
    pub(crate) fn unpack(packed: &str) -> Option<Path> {
        let mut p = Path::root();
        let body = packed.strip_suffix(PACKED_END)?;
        for step in body.split(PACKED_END) {
            if let Some(name) = step.strip_prefix('.') {
                p.0.push(Step::Field(Cow::Owned(name.into())));
            } else {
                p.0.push(Step::Index(step.strip_prefix('#')?.parse().ok()?));
            }
        }
        Some(p)
    }
}

/// Ends each step of a packed path: a control character no field name allot reads holds.
const PACKED_END: char = '\u{1e}';

impl From<&'static str> for Path {
    /// [`Path::fields`].
    fn from(names: &'static str) -> Path {
        Path::fields(names)
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            match step {
                Step::Field(name) if i == 0 => f.write_str(name)?,
                Step::Field(name) => write!(f, ".{name}")?,
                Step::Index(k) => write!(f, "[{k}]")?,
            }
        }
        Ok(())
    }
}

impl serde::Serialize for Path {
    /// As text: the bindings' `path`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Compares the written form, so that tests can say `e.field() == "clusters[2].weight"`.
impl PartialEq<str> for Path {
    fn eq(&self, other: &str) -> bool {
        use fmt::Write;
        /// Checks each written piece against the rest of `other`, without allocating.
        struct Against<'a>(&'a str);
        impl Write for Against<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                match self.0.strip_prefix(s) {
                    Some(rest) => {
                        self.0 = rest;
                        Ok(())
                    }
                    None => Err(fmt::Error),
                }
            }
        }
        let mut rest = Against(other);
        write!(rest, "{self}").is_ok() && rest.0.is_empty()
    }
}

impl PartialEq<&str> for Path {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_as_fields_and_indexes() {
        let p = Path::fields("clusters").index(2).field("weight");
        assert_eq!(p.text(), "clusters[2].weight");
        assert_eq!(p, "clusters[2].weight");
        assert!(p != "clusters[2].weigh");
        assert!(p != "clusters[2].weights");
        assert_eq!(Path::root().text(), "");
        assert_eq!(Path::fields("").text(), "");
        let inner = Path::fields("numa").field(String::from("0"));
        assert_eq!(
            inner.within(&Path::fields("nodes").index(1)),
            "nodes[1].numa.0"
        );
        assert_eq!(Path::root().index(3).text(), "[3]");
    }

    #[test]
    fn written_paths_read_back_as_steps() {
        for written in ["a", "a.b", "a[1]", "a[1][2].b", "[3].c", "a[x]", "a[1]x"] {
            assert_eq!(Path::fields(written).text(), written);
        }
        assert_eq!(
            Path::fields("resourceModels[1].ranges"),
            Path::fields("resourceModels").index(1).field("ranges")
        );
        assert_eq!(Path::fields("a[x]").steps(), &[Step::Field("a[x]".into())]);
    }

    #[test]
    fn fields_are_steps() {
        assert_eq!(
            Path::fields("policy.cpumem.shareBase").steps(),
            &[
                Step::Field("policy".into()),
                Step::Field("cpumem".into()),
                Step::Field("shareBase".into())
            ]
        );
    }
}
