//! The loops of a PTX function, found by their back edges in its
//! control-flow graph, and the instructions in them: how the suite shows what a loop costs per iteration
//! (e.g. the Best Practices Guide §6.3 loop with different counter types) and
//! that a throughput kernel's loop still holds the instructions it measures.

use crate::control_flow::natural_loops;

/// One loop: its header's label and the instructions of all its blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxLoop<'a> {
    /// The header label, e.g. `$L__BB3_2`.
    pub label: &'a str,
    /// The instruction lines, trimmed, comments removed (predicates such as
    /// `@%p1` kept).
    pub instructions: Vec<&'a str>,
}

impl PtxLoop<'_> {
    /// Instructions whose opcode starts with `opcode`, e.g. `"fma.rn.f32"`,
    /// `"bra"` or `"ld.global"` (a predicate before the opcode is skipped).
    pub fn count(&self, opcode: &str) -> usize {
        self.instructions
            .iter()
            .filter(|line| opcode_of(line).starts_with(opcode))
            .count()
    }

    /// All instructions in the loop.
    pub fn len(&self) -> usize {
        self.instructions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.instructions.is_empty()
    }

    /// Instructions per occurrence of `opcode` (e.g. per `st.global`: per
    /// source iteration of a loop that stores once per iteration and was
    /// unrolled); `None` if the loop has none.
    pub fn instructions_per(&self, opcode: &str) -> Option<f64> {
        let occurrences = self.count(opcode);
        (occurrences > 0).then(|| self.len() as f64 / occurrences as f64)
    }
}

/// The opcode of an instruction line: its first word, after a predicate guard.
pub fn opcode_of(line: &str) -> &str {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("");
    let opcode = if first.starts_with('@') {
        words.next().unwrap_or("")
    } else {
        first
    };
    opcode.trim_end_matches(';')
}

/// The text of entry `name` in a PTX module, from its `.entry` line to its
/// closing brace.
pub fn entry_text<'a>(ptx: &'a str, name: &str) -> Option<&'a str> {
    let start = ptx.find(&format!(".entry {name}("))?;
    let rest = &ptx[start..];
    let end = rest.find("\n}").map_or(rest.len(), |i| i + 2);
    Some(&rest[..end])
}

/// A line's label, if it defines one (`$L__BB0_3:` followed by a comment or nothing).
fn label_of(line: &str) -> Option<&str> {
    let code = line.split("//").next()?.trim();
    code.strip_suffix(':')
        .filter(|l| !l.is_empty() && !l.contains(char::is_whitespace))
}

/// A line's instruction, if it is one: not blank, a comment, a label, a
/// directive, a brace, or a jump table's target list.
fn instruction_of(line: &str) -> Option<&str> {
    let code = line.split("//").next()?.trim();
    let is_instruction = !code.is_empty()
        && !code.ends_with(':')
        && !code.starts_with('.')
        && !code.starts_with('{')
        && !code.starts_with('}')
        && !code.starts_with('$')
        && !code.starts_with(')')
        && code.ends_with(';');
    is_instruction.then_some(code)
}

/// How control leaves a block.
#[derive(Debug, PartialEq)]
enum Exit<'a> {
    /// Into the next block.
    FallThrough,
    /// `bra target` (with `conditional`, also into the next block).
    Branch { target: &'a str, conditional: bool },
    /// `brx.idx` through a jump table.
    Table(Vec<&'a str>),
    /// `ret`, `exit` or `trap`.
    Return,
}

/// How instruction `instruction` leaves its block, if it ends one.
fn exit_of<'a>(instruction: &'a str, last_table: &[&'a str]) -> Option<Exit<'a>> {
    let conditional = instruction.starts_with('@');
    let opcode = opcode_of(instruction);
    let operand = instruction
        .split_whitespace()
        .nth(if conditional { 2 } else { 1 })
        .map(|o| o.trim_end_matches([';', ',']));
    if opcode == "bra" || opcode.starts_with("bra.") {
        return Some(Exit::Branch {
            target: operand?,
            conditional,
        });
    }
    if opcode.starts_with("brx") {
        return Some(Exit::Table(last_table.to_vec()));
    }
    (!conditional && matches!(opcode, "ret" | "exit" | "trap")).then_some(Exit::Return)
}

/// A straight-line run of instructions, entered only at its top.
#[derive(Debug)]
struct Block<'a> {
    labels: Vec<&'a str>,
    instructions: Vec<&'a str>,
    exit: Exit<'a>,
}

/// The function's basic blocks in text order: a block starts at a label (or
/// after a branch) and ends at a branch, a return, or the next label.
fn blocks(function_ptx: &str) -> Vec<Block<'_>> {
    let mut blocks: Vec<Block<'_>> = vec![];
    let mut open = Block {
        labels: vec![],
        instructions: vec![],
        exit: Exit::FallThrough,
    };
    let mut table: Vec<&str> = vec![];
    let mut in_table = false;
    for line in function_ptx.lines() {
        let code = line.split("//").next().unwrap_or("").trim();
        if code.contains(".branchtargets") {
            table.clear();
            in_table = true;
        }
        if in_table {
            let list = code.split(".branchtargets").last().unwrap_or(code);
            table.extend(list.split([',', ';']).map(str::trim).filter(|t| t.starts_with('$')));
            in_table = !code.ends_with(';');
            continue;
        }
        if let Some(label) = label_of(line) {
            if !open.instructions.is_empty() {
                blocks.push(std::mem::replace(
                    &mut open,
                    Block {
                        labels: vec![],
                        instructions: vec![],
                        exit: Exit::FallThrough,
                    },
                ));
            }
            open.labels.push(label);
            continue;
        }
        let Some(instruction) = instruction_of(line) else {
            continue;
        };
        open.instructions.push(instruction);
        if let Some(exit) = exit_of(instruction, &table) {
            open.exit = exit;
            blocks.push(std::mem::replace(
                &mut open,
                Block {
                    labels: vec![],
                    instructions: vec![],
                    exit: Exit::FallThrough,
                },
            ));
        }
    }
    if !open.instructions.is_empty() || !open.labels.is_empty() {
        blocks.push(open);
    }
    blocks
}

/// Each block's successors (indices into `blocks`).
fn successors(blocks: &[Block<'_>]) -> Vec<Vec<usize>> {
    let find = |label: &str| blocks.iter().position(|b| b.labels.contains(&label));
    blocks
        .iter()
        .enumerate()
        .map(|(i, block)| {
            let next = (i + 1 < blocks.len()).then_some(i + 1);
            match &block.exit {
                Exit::FallThrough => next.into_iter().collect(),
                Exit::Branch { target, conditional } => {
                    let mut out: Vec<usize> = find(target).into_iter().collect();
                    if *conditional {
                        out.extend(next);
                    }
                    out
                }
                Exit::Table(targets) => targets.iter().filter_map(|t| find(t)).collect(),
                Exit::Return => vec![],
            }
        })
        .collect()
}

/// Every loop of a function's PTX (e.g. [`entry_text`]'s result), one per
/// loop header, in the order the headers appear: found from the control-flow
/// graph (blocks, branches, fall-throughs), each back edge (a branch or
/// fall-through to a block that dominates its source) giving the natural
/// loop of its header. A nested loop appears on its own and inside its outer
/// loop. The instructions are listed in text order.
pub fn loops(function_ptx: &str) -> Vec<PtxLoop<'_>> {
    let blocks = blocks(function_ptx);
    let successors = successors(&blocks);
    natural_loops(&successors, &[0])
        .into_iter()
        .map(|l| PtxLoop {
            label: blocks[l.header].labels.first().copied().unwrap_or(""),
            instructions: blocks
                .iter()
                .zip(&l.members)
                .filter(|(_, inside)| **inside)
                .flat_map(|(block, _)| block.instructions.iter().copied())
                .collect(),
        })
        .collect()
}

/// Of [`loops`], the one with the most instructions starting with `opcode`
/// (the steady-state loop of a kernel that unrolls and keeps a remainder
/// loop); `None` if no loop has one.
pub fn loop_with_most<'a>(function_ptx: &'a str, opcode: &str) -> Option<PtxLoop<'a>> {
    loops(function_ptx)
        .into_iter()
        .filter(|l| l.count(opcode) > 0)
        .max_by_key(|l| l.count(opcode))
}
