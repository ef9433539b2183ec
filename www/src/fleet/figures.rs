//! How the fleet view writes its figures: a placement (`member1:3, member2:2`), CPU in cores
//! from the core's millicores, memory in binary units from its bytes, a count with its noun.

use std::collections::BTreeMap;

use allot_core::resource::ResourceList;

/// `member1:3, member2:2`, or a dash.
pub fn placement(c: &BTreeMap<String, i64>) -> String {
    if c.is_empty() {
        return "–".into();
    }
    c.iter()
        .map(|(k, v)| format!("{k}:{v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// CPU in cores (`16.5`), from the millicores the core counts in.
pub fn cpu(list: &ResourceList) -> String {
    cores(list.get("cpu"))
}

/// Millicores in cores (`16.5`), millicores below one core (`500m`).
pub fn cores(m: u64) -> String {
    if m != 0 && m < 1000 {
        format!("{m}m")
    } else if m % 1000 == 0 {
        format!("{}", m / 1000)
    } else {
        format!("{:.2}", m as f64 / 1000.0)
            .trim_end_matches('0')
            .to_string()
    }
}

/// `n word` or `n words`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Memory in binary units (`15.5Gi`), from the bytes the core counts in.
pub fn memory(list: &ResourceList) -> String {
    binary(list.get("memory"))
}

pub fn binary(bytes: u64) -> String {
    let mut n = bytes as f64;
    for unit in ["", "Ki", "Mi", "Gi", "Ti"] {
        if n < 1024.0 || unit == "Ti" {
            let text = format!("{n:.1}");
            let text = text.trim_end_matches('0').trim_end_matches('.');
            return format!("{text}{unit}");
        }
        n /= 1024.0;
    }
    String::new()
}
