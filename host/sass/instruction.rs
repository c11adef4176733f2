//! One SASS instruction as `nvdisasm` and `cuobjdump -sass` print it:
//! `/*0170*/  @!P0 IMAD.IADD R5, R13, 0x1, R12 ;` — its address, predicate
//! guard, opcode with modifiers and operands.

/// A predicate guard, `@P0` or `@!UP1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    /// `P0`…`P6` or `UP0`…`UP6` (`PT`, always true, is no guard).
    pub predicate: String,
    pub negated: bool,
}

/// One instruction of a function's SASS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SassInstruction {
    /// Its byte offset in the function (`/*0170*/`).
    pub address: u32,
    pub guard: Option<Guard>,
    /// The opcode with its modifiers, e.g. `IMAD.IADD` or `ISETP.NE.U32.AND`.
    pub opcode: String,
    /// The operands as printed, e.g. `["R5", "R13", "0x1", "R12"]`.
    pub operands: Vec<String>,
    /// Where a branch, call or convergence barrier (`BSSY`) points: an
    /// address in the same function, from a label (`nvdisasm`) or an
    /// absolute offset (`cuobjdump`); `None` for other instructions.
    pub target: Option<u32>,
}

impl SassInstruction {
    /// The opcode without modifiers: `IMAD` for `IMAD.IADD`.
    pub fn base(&self) -> &str {
        self.opcode.split('.').next().unwrap_or("")
    }

    /// Whether the opcode is `opcode` or `opcode` with more modifiers
    /// (`"IMAD"` matches `IMAD.IADD`; `"MUFU.RCP"` matches `MUFU.RCP`, not `MUFU.RCP64H`).
    pub fn is(&self, opcode: &str) -> bool {
        self.opcode == opcode
            || self
                .opcode
                .strip_prefix(opcode)
                .is_some_and(|rest| rest.starts_with('.'))
    }

    /// A jump inside the function: `BRA` (direct), `BRX`/`JMX` (through a
    /// register), `JMP` (absolute).
    pub fn is_branch(&self) -> bool {
        matches!(self.base(), "BRA" | "BRX" | "JMP" | "JMX")
    }

    /// Whether it can fall through to the next instruction as well as jump:
    /// a guard, or a `BRA` with a condition operand (`BRA.DIV UR4, …`).
    pub fn is_conditional(&self) -> bool {
        self.guard.is_some() || (self.base() == "BRA" && self.operands.len() > 1)
    }

    /// Whether control leaves the function here: `EXIT`, `RET`, `KILL`.
    pub fn is_return(&self) -> bool {
        matches!(self.base(), "EXIT" | "RET" | "KILL")
    }

    /// Guarded by a predicate, and not a branch: the predicated execution
    /// that replaces a short branch (`@!P2 FADD R8, R12, 0.25`).
    pub fn is_predicated(&self) -> bool {
        self.guard.is_some() && !self.is_branch()
    }

    /// The register the instruction writes first (its first operand), with
    /// `.reuse` and similar suffixes removed: `R5` of `IMAD.IADD R5, …`.
    pub fn destination(&self) -> Option<&str> {
        self.operands.first().map(|o| register_name(o))
    }
}

/// `R10` of `R10.reuse`, `-R10`, `|R10|` or `R10.64`; other operands unchanged.
pub fn register_name(operand: &str) -> &str {
    let operand = operand.trim().trim_start_matches(['-', '!', '|', '~']);
    let end = operand.find(['.', '|']).unwrap_or(operand.len());
    &operand[..end]
}

/// An immediate integer operand, `0x8`, `-0x8`, `0xfffffffc` (as the 32-bit
/// value it encodes, −4) or `12`; `None` for anything else.
pub fn immediate(operand: &str) -> Option<i64> {
    let operand = operand.trim();
    let (negative, digits) = match operand.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, operand),
    };
    let value = match digits.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<u64>().ok()?,
    };
    // 32-bit operands are printed unsigned: 0xfffffffc is −4.
    let value = if value <= u32::MAX as u64 {
        value as u32 as i32 as i64
    } else {
        value as i64
    };
    Some(if negative { -value } else { value })
}

/// Parses the text between an instruction's address comment and its `;`:
/// `@!P0 BRA `(.L_x_641)` or `IADD3 R4, R12, R15, RZ`. The branch target
/// is left for the listing to resolve. `None` for an empty text.
pub fn parse_instruction(address: u32, text: &str) -> Option<SassInstruction> {
    let mut rest = text.trim();
    let mut guard = None;
    if let Some(guarded) = rest.strip_prefix('@') {
        let (predicate, after) = guarded.split_once(char::is_whitespace)?;
        let (negated, predicate) = match predicate.strip_prefix('!') {
            Some(p) => (true, p),
            None => (false, predicate),
        };
        // `@PT` always executes; `@!PT` never does, but stays a guard.
        if predicate != "PT" || negated {
            guard = Some(Guard {
                predicate: predicate.to_string(),
                negated,
            });
        }
        rest = after.trim_start();
    }
    let (opcode, operands) = match rest.split_once(char::is_whitespace) {
        Some((opcode, operands)) => (opcode, operands.trim()),
        None => (rest, ""),
    };
    if opcode.is_empty() {
        return None;
    }
    let operands = if operands.is_empty() {
        Vec::new()
    } else {
        operands.split(',').map(|o| o.trim().to_string()).collect()
    };
    Some(SassInstruction {
        address,
        guard,
        opcode: opcode.to_string(),
        operands,
        target: None,
    })
}

#[cfg(test)]
mod tests {
    use super::{immediate, parse_instruction, register_name};

    #[test]
    fn guards_opcodes_and_operands_are_split() {
        let i = parse_instruction(0x170, "@!P0 IMAD.IADD R5, R13.reuse, 0x1, R12").unwrap();
        assert_eq!(i.address, 0x170);
        let guard = i.guard.as_ref().unwrap();
        assert_eq!((guard.predicate.as_str(), guard.negated), ("P0", true));
        assert_eq!(i.opcode, "IMAD.IADD");
        assert_eq!(i.base(), "IMAD");
        assert_eq!(i.operands, ["R5", "R13.reuse", "0x1", "R12"]);
        assert_eq!(i.destination(), Some("R5"));
        assert!(i.is("IMAD") && i.is("IMAD.IADD") && !i.is("IMAD.I") && !i.is("IMA"));
        assert!(i.is_predicated() && !i.is_branch());
        let exit = parse_instruction(0x7b0, "EXIT").unwrap();
        assert!(exit.operands.is_empty() && exit.is_return() && exit.guard.is_none());
        let always = parse_instruction(0, "@PT FADD R1, R2, R3").unwrap();
        assert!(always.guard.is_none(), "@PT is no guard");
        let branch = parse_instruction(0x590, "@P0 BRA `(.L_x_643)").unwrap();
        assert!(branch.is_branch() && branch.is_conditional() && !branch.is_predicated());
        let divergence_check = parse_instruction(0, "BRA.DIV UR4, `(.L_x_9)").unwrap();
        assert!(divergence_check.is_conditional());
        assert!(!parse_instruction(0, "BRA `(.L_x_9)").unwrap().is_conditional());
        assert!(parse_instruction(0, "  ").is_none());
    }

    #[test]
    fn immediates_read_as_32_bit_values() {
        assert_eq!(immediate("0x8"), Some(8));
        assert_eq!(immediate("-0x8"), Some(-8));
        assert_eq!(immediate("0xfffffffc"), Some(-4));
        assert_eq!(immediate("12"), Some(12));
        assert_eq!(immediate("R3"), None);
        assert_eq!(immediate("0.25"), None);
        assert_eq!(register_name("R10.reuse"), "R10");
        assert_eq!(register_name("-|R4|"), "R4");
        assert_eq!(register_name("UR4"), "UR4");
    }
}
