//! A request's progress while the fleet's worker computes (docs/playground.md): the dump's
//! size as it is read, then the bindings the scheduler has taken of those waiting (the core's
//! drain reports them, docs/rules/fleet.md §23), as a fraction; and Cancel, which terminates
//! the worker and reads the fleet as it was into a new one ([`Ask::cancel`]).

use yew::prelude::*;

use super::worker::Progress;
use super::{Ask, Model};

/// `7.0 MB`.
fn size(bytes: f64) -> String {
    if bytes >= 1e6 {
        format!("{:.1} MB", bytes / 1e6)
    } else {
        format!("{:.0} kB", (bytes / 1e3).ceil())
    }
}

/// What the request has done, in words: `reading the dump (7.0 MB)`, `4210 of 10000
/// bindings scheduled`, with the step of a history being replayed.
fn words(p: &Progress) -> String {
    if let Some(bytes) = p.bytes {
        return format!("reading the dump ({})", size(bytes));
    }
    if p.total <= 0.0 {
        return String::new();
    }
    let what = if p.failures {
        "failures planned"
    } else {
        "bindings scheduled"
    };
    let bindings = format!("{} of {} {what}", p.done as u64, p.total as u64);
    match p.step {
        Some((k, n)) => format!("step {k} of {n}: {bindings}"),
        None => bindings,
    }
}

/// The status line of a request in flight past 200 ms: its bar, its words, Cancel.
pub fn status(ask: &Ask, m: &Model, label: &str) -> Html {
    if !m.slow {
        return Html::default();
    }
    let fraction = m.progress.as_ref().and_then(Progress::fraction);
    let done = m.progress.as_ref().map(words).unwrap_or_default();
    let cancel = {
        let ask = ask.clone();
        Callback::from(move |_| ask.cancel())
    };
    html! {
        <>
            <progress id="fleet-progress" aria-label={format!("working: {label}")} max="1"
                      value={fraction.map(|f| format!("{f:.5}"))}></progress>
            // Cancel before the words, which change with every report: a button that moved
            // with them could not be pressed while the work goes on.
            <button type="button" id="fleet-cancel" onclick={cancel}
                    title="stop: the fleet stays as it was before this request">{ "Cancel" }</button>
            <span id="fleet-progress-words">{ format!(" {label}…") }
                if !done.is_empty() { { format!(" {done}") } }</span>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_say_the_bytes_then_the_bindings() {
        let reading = Progress {
            bytes: Some(7_025_595.0),
            ..Progress::default()
        };
        assert_eq!(words(&reading), "reading the dump (7.0 MB)");
        let p = Progress {
            done: 4210.0,
            total: 10000.0,
            ..Progress::default()
        };
        assert_eq!(words(&p), "4210 of 10000 bindings scheduled");
        let replay = Progress {
            step: Some((2.0, 3.0)),
            ..p
        };
        assert_eq!(
            words(&replay),
            "step 2 of 3: 4210 of 10000 bindings scheduled"
        );
    }
}
