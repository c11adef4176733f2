//! A loop's SASS instructions counted by opcode and by class, with the
//! counts that decide predication (guarded instructions, branches,
//! convergence barriers, selects).

use super::instruction::SassInstruction;
use super::opcode_class::SassClass;

/// The instructions of a loop (or any list), counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SassCounts {
    pub instructions: usize,
    /// Opcodes with their modifiers and counts, in order of first appearance.
    pub by_opcode: Vec<(String, usize)>,
    /// Classes with their counts, in [`SassClass::ALL`]'s order, nonzero only.
    pub by_class: Vec<(SassClass, usize)>,
    /// Guarded instructions that are not branches (`@!P2 FADD …`).
    pub predicated: usize,
    /// `BRA`, `BRX`, `JMP`, `JMX` (a loop's back edge included).
    pub branches: usize,
    /// `BSSY`, `BSYNC`, `WARPSYNC`, `BREAK`: where a warp may diverge and reconverges.
    pub convergence: usize,
    /// `SEL`, `FSEL`: selects.
    pub selects: usize,
}

impl SassCounts {
    pub fn of<'a>(instructions: impl IntoIterator<Item = &'a SassInstruction>) -> Self {
        let mut counts = Self::default();
        let mut classes = [0usize; SassClass::ALL.len()];
        for instruction in instructions {
            counts.instructions += 1;
            match counts.by_opcode.iter_mut().find(|(o, _)| *o == instruction.opcode) {
                Some((_, n)) => *n += 1,
                None => counts.by_opcode.push((instruction.opcode.clone(), 1)),
            }
            let class = SassClass::of(&instruction.opcode);
            if let Some(slot) = SassClass::ALL.iter().position(|c| *c == class) {
                classes[slot] += 1;
            }
            counts.predicated += usize::from(instruction.is_predicated());
            counts.branches += usize::from(instruction.is_branch());
            counts.convergence += usize::from(matches!(instruction.base(), "BSSY" | "BSYNC" | "WARPSYNC" | "BREAK"));
            counts.selects += usize::from(matches!(instruction.base(), "SEL" | "FSEL"));
        }
        counts.by_class = SassClass::ALL
            .into_iter()
            .zip(classes)
            .filter(|(_, n)| *n > 0)
            .collect();
        counts
    }

    /// Instructions whose opcode is one of `opcodes` or one of them with more
    /// modifiers (see [`SassInstruction::is`]).
    pub fn count(&self, opcodes: &[&str]) -> usize {
        self.by_opcode
            .iter()
            .filter(|(op, _)| {
                opcodes
                    .iter()
                    .any(|o| op == o || op.strip_prefix(o).is_some_and(|rest| rest.starts_with('.')))
            })
            .map(|(_, n)| n)
            .sum()
    }

    /// Instructions of `class`.
    pub fn of_class(&self, class: SassClass) -> usize {
        self.by_class.iter().find(|(c, _)| *c == class).map_or(0, |(_, n)| *n)
    }

    /// Branches besides one back edge.
    pub fn side_branches(&self) -> usize {
        self.branches.saturating_sub(1)
    }

    /// Whether every instruction runs on every pass: no branch but the back
    /// edge, no call, no convergence barrier. Only then are the counts what
    /// one pass executes (otherwise they include paths not taken).
    pub fn is_straight_line(&self) -> bool {
        self.side_branches() == 0 && self.convergence == 0 && self.count(&["CALL"]) == 0
    }

    /// "IADD3 ×35, IMAD.IADD ×30, ISETP.NE.U32.AND, BRA".
    pub fn listing(&self) -> String {
        self.by_opcode
            .iter()
            .map(|(op, n)| if *n == 1 { op.clone() } else { format!("{op} ×{n}") })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::SassCounts;
    use crate::sass::instruction::parse_instruction;
    use crate::sass::opcode_class::SassClass;

    #[test]
    fn counts_by_opcode_class_and_guard() {
        let lines = [
            "FMUL R8, R12, 0.75",
            "@!P2 FADD R8, R12, 0.25",
            "@!P2 FADD R9, R3, 0.25",
            "IADD3 R6, R6, 0x4, RZ",
            "ISETP.NE.U32.AND P0, PT, R6, R5, PT",
            "BSSY B0, `(.L_x_1)",
            "FSEL R1, R2, R3, P0",
            "@P0 BRA `(.L_x_242)",
        ];
        let instructions: Vec<_> = lines.iter().map(|l| parse_instruction(0, l).unwrap()).collect();
        let counts = SassCounts::of(&instructions);
        assert_eq!(counts.instructions, 8);
        assert_eq!(counts.predicated, 2);
        assert_eq!((counts.branches, counts.side_branches()), (1, 0));
        assert_eq!((counts.convergence, counts.selects), (1, 1));
        assert!(!counts.is_straight_line(), "a BSSY");
        assert!(SassCounts::of(&instructions[..5]).is_straight_line());
        assert_eq!(counts.count(&["FADD"]), 2);
        assert_eq!(counts.count(&["ISETP"]), 1);
        assert_eq!(counts.count(&["ISETP.NE"]), 1);
        assert_eq!(counts.count(&["ISET"]), 0, "a prefix of the base is not the opcode");
        assert_eq!(counts.of_class(SassClass::Fp32Arithmetic), 3);
        assert_eq!(counts.of_class(SassClass::IntegerAlu), 2);
        assert_eq!(counts.of_class(SassClass::Control), 2);
        assert_eq!(counts.by_class.iter().map(|(_, n)| n).sum::<usize>(), 8);
        assert_eq!(
            counts.listing(),
            "FMUL, FADD ×2, IADD3, ISETP.NE.U32.AND, BSSY, FSEL, BRA"
        );
    }
}
