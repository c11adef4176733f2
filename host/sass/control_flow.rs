//! The loops of a SASS function: basic blocks split at branch targets and
//! after jumps and exits, the control-flow graph, dominators, and the
//! natural loop of every back edge (an edge into a block that dominates its
//! source; in ptxas's layout, a `BRA` to an earlier address).

use super::instruction::{SassInstruction, immediate, register_name};
use crate::control_flow::natural_loops;

/// One loop of a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SassLoop<'a> {
    /// The address of its header (the first instruction of the loop's entry block).
    pub header: u32,
    /// Its instructions in address order, nested loops' included.
    pub instructions: Vec<&'a SassInstruction>,
    /// Whether no other loop lies inside it.
    pub innermost: bool,
}

impl SassLoop<'_> {
    /// The branches back to the header from inside the loop.
    fn back_edges(&self) -> impl Iterator<Item = &SassInstruction> {
        self.instructions
            .iter()
            .copied()
            .filter(|i| i.is_branch() && i.target == Some(self.header))
    }

    /// How much the loop's counter moves per pass: the immediate the
    /// counter register is stepped by (`IADD3 R3, R3, -0x8, RZ` → 8), the
    /// counter being the register that the compare guarding the back edge
    /// reads. For a loop counting rounds, the rounds one pass of the
    /// (unrolled) loop performs. `None` when the pattern is not there.
    pub fn counter_step(&self) -> Option<u32> {
        let back_edge = self.back_edges().last()?;
        let predicate = &back_edge.guard.as_ref()?.predicate;
        let compare = self
            .instructions
            .iter()
            .rev()
            .filter(|i| i.address < back_edge.address)
            .find(|i| i.base().ends_with("SETP") && i.destination() == Some(predicate.as_str()))?;
        let is_register = |r: &str| {
            let number = r.strip_prefix("UR").or_else(|| r.strip_prefix('R'));
            number.is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        };
        let mut steps = compare
            .operands
            .iter()
            .skip(1)
            .map(|o| register_name(o))
            .filter(|r| is_register(r))
            .flat_map(|counter| {
                self.instructions.iter().filter_map(move |i| {
                    let adds = matches!(i.base(), "IADD3" | "VIADD" | "UIADD3" | "IADD" | "IADD32I");
                    if !adds || i.destination() != Some(counter) || i.guard.is_some() {
                        return None;
                    }
                    let sources: Vec<&str> = i.operands[1..].iter().map(|o| register_name(o)).collect();
                    let reads_itself = sources.contains(&counter);
                    let others: Vec<&str> = sources
                        .iter()
                        .copied()
                        .filter(|s| *s != counter && *s != "RZ" && *s != "URZ")
                        .collect();
                    match others.as_slice() {
                        [step] if reads_itself => immediate(step).map(|v| v.unsigned_abs() as u32),
                        _ => None,
                    }
                })
            });
        let step = steps.next()?;
        (steps.next().is_none() && step > 0).then_some(step)
    }
}

/// How control leaves a block.
struct Block {
    /// Index of its first and one past its last instruction.
    start: usize,
    end: usize,
    successors: Vec<usize>,
}

/// The function's basic blocks with their successors.
fn blocks(instructions: &[SassInstruction]) -> Vec<Block> {
    let index_of = |address: u32| instructions.iter().position(|i| i.address == address);
    let mut leader = vec![false; instructions.len()];
    if let Some(first) = leader.first_mut() {
        *first = true;
    }
    for (i, instruction) in instructions.iter().enumerate() {
        if (instruction.is_branch() || instruction.is_return())
            && let Some(next) = leader.get_mut(i + 1)
        {
            *next = true;
        }
        if (instruction.is_branch() || instruction.base() == "CALL")
            && let Some(target) = instruction.target.and_then(index_of)
        {
            leader[target] = true;
        }
    }
    let starts: Vec<usize> = (0..instructions.len()).filter(|&i| leader[i]).collect();
    let block_of = |index: usize| starts.partition_point(|&s| s <= index) - 1;
    starts
        .iter()
        .enumerate()
        .map(|(b, &start)| {
            let end = starts.get(b + 1).copied().unwrap_or(instructions.len());
            let last = &instructions[end - 1];
            let next = (end < instructions.len()).then_some(b + 1);
            let mut successors = Vec::new();
            if last.is_branch() {
                // An indirect jump's targets are unknown: no successors (its loops are not found).
                successors.extend(last.target.and_then(index_of).map(block_of));
                if last.is_conditional() {
                    successors.extend(next);
                }
            } else if !last.is_return() || last.guard.is_some() {
                successors.extend(next);
            }
            Block { start, end, successors }
        })
        .collect()
}

/// Every loop of a function's instructions, one per header, in header
/// order: the natural loop of each back edge among the blocks the entry or
/// a `CALL` reaches (so the self-branch ptxas pads a function with is none).
pub fn loops(instructions: &[SassInstruction]) -> Vec<SassLoop<'_>> {
    let blocks = blocks(instructions);
    let successors: Vec<Vec<usize>> = blocks.iter().map(|b| b.successors.clone()).collect();
    let block_at = |address: u32| blocks.iter().position(|b| instructions[b.start].address == address);
    let mut roots: Vec<usize> = vec![0];
    roots.extend(
        instructions
            .iter()
            .filter(|i| i.base() == "CALL")
            .filter_map(|i| i.target.and_then(block_at)),
    );
    let loops = natural_loops(&successors, &roots);
    let headers: Vec<usize> = loops.iter().map(|l| l.header).collect();
    loops
        .iter()
        .map(|l| SassLoop {
            header: instructions[blocks[l.header].start].address,
            instructions: blocks
                .iter()
                .zip(&l.members)
                .filter(|(_, inside)| **inside)
                .flat_map(|(block, _)| instructions[block.start..block.end].iter())
                .collect(),
            innermost: !headers.iter().any(|&h| h != l.header && l.members[h]),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::loops;
    use crate::sass::instruction::{SassInstruction, parse_instruction};

    /// Instructions at 0x10 steps, `BRA n` meaning "to instruction n".
    fn function(lines: &[&str]) -> Vec<SassInstruction> {
        lines
            .iter()
            .enumerate()
            .map(|(n, text)| {
                let mut i = parse_instruction(0x10 * n as u32, text).unwrap();
                if i.is_branch() || i.base() == "CALL" || i.base() == "BSSY" {
                    let to: u32 = i.operands.last().unwrap().parse().unwrap();
                    i.target = Some(0x10 * to);
                }
                i
            })
            .collect()
    }

    #[test]
    fn nested_loops_and_the_innermost_one() {
        let f = function(&[
            "MOV R0, RZ",                       // 0
            "MOV R1, RZ",                       // 1 outer header
            "FFMA R2, R2, R2, R2",              // 2 inner header
            "IADD3 R1, R1, 0x1, RZ",            // 3
            "ISETP.NE.AND P0, PT, R1, 0x4, PT", // 4
            "@P0 BRA 2",                        // 5 inner back edge
            "VIADD R0, R0, 0xffffffff",         // 6
            "ISETP.NE.AND P1, PT, R0, RZ, PT",  // 7
            "@P1 BRA 1",                        // 8 outer back edge
            "EXIT",                             // 9
            "BRA 10",                           // 10 padding
        ]);
        let found = loops(&f);
        assert_eq!(found.len(), 2, "{found:#?}");
        let (outer, inner) = (&found[0], &found[1]);
        assert_eq!((outer.header, inner.header), (0x10, 0x20));
        assert_eq!(outer.instructions.len(), 8);
        assert_eq!(inner.instructions.len(), 4);
        assert!(inner.innermost && !outer.innermost);
        assert_eq!(inner.counter_step(), Some(1));
        assert_eq!(outer.counter_step(), Some(1), "VIADD by 0xffffffff is a step of 1");
    }

    #[test]
    fn a_loop_laid_out_with_its_latch_first_is_found() {
        // Entry jumps into the header; the latch block sits before it.
        let f = function(&[
            "BRA 3",                           // 0
            "IADD3 R5, R5, 0x4, RZ",           // 1 latch
            "ISETP.NE.AND P0, PT, R5, R6, PT", // 2
            "@!P0 BRA 6",                      // 3 header? no: target of 0 is 3
            "FADD R1, R1, R1",                 // 4
            "BRA 1",                           // 5
            "EXIT",                            // 6
        ]);
        let found = loops(&f);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].header, 0x30);
        assert_eq!(found[0].instructions.len(), 5);
        assert_eq!(found[0].counter_step(), None, "the back edge is unguarded");
    }

    #[test]
    fn predicated_code_is_one_block_and_calls_are_roots() {
        let f = function(&[
            "LOP3.LUT P2, RZ, R7, UR6, RZ, 0xc0, !PT", // 0 header
            "FMUL R8, R12, 0.75",                      // 1
            "@!P2 FADD R8, R12, 0.25",                 // 2
            "IADD3 R6, R6, 0x4, RZ",                   // 3
            "ISETP.NE.U32.AND P0, PT, R6, R5, PT",     // 4
            "@P0 BRA 0",                               // 5
            "CALL.REL.NOINC 8",                        // 6
            "EXIT",                                    // 7
            "FADD R0, R0, R0",                         // 8 subroutine loop
            "@P3 BRA 8",                               // 9
            "RET.REL.NODEC R20 0x0",                   // 10
        ]);
        let found = loops(&f);
        assert_eq!(found.len(), 2, "{found:#?}");
        assert_eq!(found[0].instructions.len(), 6);
        assert_eq!(found[0].counter_step(), Some(4));
        assert_eq!(found[1].header, 0x80, "the called subroutine's loop");
        assert!(loops(&[]).is_empty());
    }
}
