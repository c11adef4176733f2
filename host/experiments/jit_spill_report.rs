//! The register spills the driver's JIT reports for one kernel, read from
//! its verbose info log (`Module::jit_info_log`, ptxas's `-v` lines).

/// Spill stores and spill loads in bytes a thread, as the JIT's info log
/// states them for `entry` (the line after `Function properties for <entry>`,
/// e.g. `0 bytes stack frame, 52 bytes spill stores, 28 bytes spill loads`);
/// `None` when the log does not say.
pub fn spill_bytes(log: &str, entry: &str) -> Option<(u64, u64)> {
    let mut lines = log.lines();
    lines.find(|line| {
        line.trim_end()
            .strip_suffix(entry)
            .is_some_and(|head| head.ends_with("Function properties for "))
    })?;
    let properties = lines.take(2).find(|line| line.contains("bytes spill stores"))?;
    Some((
        bytes_before(properties, "bytes spill stores")?,
        bytes_before(properties, "bytes spill loads")?,
    ))
}

/// The number just before `label` in `line` (`52` of `..., 52 bytes spill stores`).
fn bytes_before(line: &str, label: &str) -> Option<u64> {
    let head = &line[..line.find(label)?];
    head.split(|c: char| !c.is_ascii_digit())
        .rfind(|word| !word.is_empty())?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::spill_bytes;

    const LOG: &str = "ptxas info    : 0 bytes gmem\n\
        ptxas info    : Compiling entry function 'local_array_spilled' for 'sm_90'\n\
        ptxas info    : Function properties for local_array_spilled\n\
        ptxas         .     0 bytes stack frame, 52 bytes spill stores, 28 bytes spill loads\n\
        ptxas info    : Used 64 registers, used 0 barriers, 52 bytes cumulative stack size\n\
        ptxas info    : Function properties for local_array_spilled_twice\n\
        ptxas         .     8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n\
        ptxas info    : Function properties for local_array_registers\n\
        ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";

    #[test]
    fn reads_the_spills_of_the_named_entry_only() {
        assert_eq!(spill_bytes(LOG, "local_array_spilled"), Some((52, 28)));
        assert_eq!(spill_bytes(LOG, "local_array_spilled_twice"), Some((4, 4)));
        assert_eq!(spill_bytes(LOG, "local_array_registers"), Some((0, 0)));
        assert_eq!(spill_bytes(LOG, "array_spilled"), None, "a suffix of another name");
        assert_eq!(spill_bytes(LOG, "no_such_entry"), None);
        assert_eq!(spill_bytes("", "local_array_spilled"), None);
    }
}
