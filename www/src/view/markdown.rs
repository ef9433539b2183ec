//! An outcome as Markdown, for pasting into an issue or a review: a heading with the scenario's
//! title and settings, the result table, and the explanation as a list.

use allot_core::scenario::{Outcome, Scenario};

use super::rows;

/// The Markdown text of an outcome.
pub fn markdown(s: &Scenario, o: &Outcome) -> String {
    let mut out = String::new();
    let title = if s.title.is_empty() {
        "allot outcome"
    } else {
        &s.title
    };
    out.push_str(&format!("### {title}\n\n"));
    match o {
        Outcome::Karmada(k) => {
            let strategy = s.policy.strategy.as_deref().unwrap_or("staticWeight");
            let seed = if k.seed_drawn { "drawn" } else { "pinned" };
            out.push_str(&format!(
                "{} replicas, {strategy}, method {}, seed {} ({seed}).\n\n",
                s.workload.replicas.unwrap_or(0),
                s.method().name(),
                k.seed
            ));
            let rows = rows::karmada(s, k).into_iter().map(|r| {
                [
                    r.name.clone(),
                    r.previous.to_string(),
                    r.replicas.to_string(),
                    r.change.word().into(),
                    r.available_text(),
                ]
            });
            table(
                &mut out,
                ["cluster", "previous", "replicas", "change", "available"],
                rows,
            );
            list(&mut out, &k.trace.explanation);
        }
        Outcome::Eru(e) => {
            out.push_str(&format!(
                "{} instances, strategy {:?}.\n\n",
                s.workload.count.unwrap_or(0),
                e.deployment.strategy
            ));
            let rows = rows::eru(s, e).into_iter().map(|r| {
                [
                    r.name.clone(),
                    r.before.to_string(),
                    rows::capacity(r.capacity),
                    r.new.map_or("–".into(), |n| n.to_string()),
                    r.after().to_string(),
                ]
            });
            table(
                &mut out,
                ["node", "instances", "capacity", "new", "after"],
                rows,
            );
            list(&mut out, &e.deployment.explanation);
        }
    }
    for w in o.warnings() {
        out.push_str(&format!("\n> **{}** `{}`: {}\n", w.code, w.path, w.message));
    }
    out
}

/// A Markdown table: the first column left-aligned, the numbers right-aligned.
fn table<const N: usize>(
    out: &mut String,
    head: [&str; N],
    rows: impl Iterator<Item = [String; N]>,
) {
    let line = |cells: &[&str]| format!("| {} |\n", cells.join(" | "));
    out.push_str(&line(&head));
    let rule: Vec<&str> = (0..N)
        .map(|i| if i == 0 { "---" } else { "---:" })
        .collect();
    out.push_str(&line(&rule));
    for row in rows {
        out.push_str(&line(&row.each_ref().map(String::as_str)));
    }
}

fn list(out: &mut String, sentences: &[String]) {
    out.push('\n');
    for s in sentences {
        out.push_str(&format!("- {s}\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use allot_core::scenario::{from_json, schedule};

    #[test]
    fn the_table_holds_every_cluster() {
        let s: Scenario = from_json(
            r#"{"version":1,"title":"t","clusters":[{"name":"member1","weight":2},{"name":"member2","weight":1},
                {"name":"member3","weight":1}],"workload":{"replicas":7},"seed":5}"#,
        )
        .unwrap();
        let md = markdown(&s, &schedule(&s, 0).unwrap());
        assert!(md.starts_with("### t\n"), "{md}");
        // No estimator answered: "not estimated", as the page's table says.
        assert!(
            md.contains("| member1 | 0 | 3 | grew | not estimated |"),
            "{md}"
        );
        assert!(md.contains("| member2 | 0 | 2 | grew |"), "{md}");
        assert!(md.contains("seed 5 (pinned)"), "{md}");
        assert!(md.contains("\n- Divided by static weights"), "{md}");
    }
}
