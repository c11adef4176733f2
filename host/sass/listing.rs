//! A disassembler's listing read into functions: `nvdisasm -c` (one
//! `.text.<name>` section per function, branch targets as labels) or
//! `cuobjdump -sass` (one `Function : <name>` block per function, branch
//! targets as offsets, each instruction followed by its encoding).

use std::collections::HashMap;

use super::control_flow::{SassLoop, loops};
use super::instruction::{SassInstruction, parse_instruction};

/// One function's SASS, in address order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SassFunction {
    pub name: String,
    pub instructions: Vec<SassInstruction>,
}

impl SassFunction {
    /// Its loops (see [`loops`]).
    pub fn loops(&self) -> Vec<SassLoop<'_>> {
        loops(&self.instructions)
    }

    /// The steady loop of a kernel: of the loops holding instructions for
    /// which `measured` is true, the one holding the most, innermost loops
    /// first (a loop that contains another is chosen only when no innermost
    /// loop holds any); `None` if no loop holds one.
    pub fn steady_loop(&self, measured: impl Fn(&SassInstruction) -> bool) -> Option<SassLoop<'_>> {
        let loops = self.loops();
        let holding = |l: &SassLoop<'_>| l.instructions.iter().filter(|i| measured(i)).count();
        let best = |innermost: bool| {
            loops
                .iter()
                .filter(|l| l.innermost == innermost && holding(l) > 0)
                .max_by_key(|l| (holding(l), l.instructions.len()))
                .cloned()
        };
        best(true).or_else(|| best(false))
    }
}

/// The name a section header or function header line starts, if it is one.
fn function_header(line: &str) -> Option<&str> {
    let trimmed = line.trim();
    // nvdisasm: `//--------------------- .text.i32_add_throughput  --------------------------`
    if let Some(rest) = trimmed.strip_prefix("//") {
        let rest = rest.trim_matches(|c: char| c == '-' || c.is_whitespace());
        return rest.strip_prefix(".text.").map(str::trim).filter(|n| !n.is_empty());
    }
    // cuobjdump: `Function : i32_add_throughput`
    trimmed
        .strip_prefix("Function :")
        .map(str::trim)
        .filter(|n| !n.is_empty())
}

/// A label definition (`.L_x_643:`, `$__internal_0_$__cuda_sm3x_div_rn_noftz_f32_slowpath:`).
fn label(line: &str) -> Option<&str> {
    let name = line.trim().strip_suffix(':')?;
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'));
    plain.then_some(name)
}

/// `(address, text)` of an instruction line, `/*0170*/  IADD3 R4, R12, R15, RZ ;  /* 0x… */`.
fn instruction_line(line: &str) -> Option<(u32, &str)> {
    let rest = line.trim_start().strip_prefix("/*")?;
    let (address, rest) = rest.split_once("*/")?;
    if address.is_empty() || !address.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let address = u32::from_str_radix(address, 16).ok()?;
    let text = rest.split(';').next()?.trim();
    // Kepler-era listings wrap dual-issued pairs in braces.
    let text = text.trim_start_matches('{').trim_end_matches('}').trim();
    Some((address, text))
}

/// The label a target operand names, `` `(.L_x_643) `` → `.L_x_643`.
fn label_reference(operand: &str) -> Option<&str> {
    let start = operand.find("`(")? + 2;
    let end = operand[start..].find(')')? + start;
    Some(&operand[start..end])
}

/// Opcodes whose last operand (in `cuobjdump`'s form, an offset) is where control may go.
fn takes_target(instruction: &SassInstruction) -> bool {
    matches!(
        instruction.base(),
        "BRA" | "JMP" | "CALL" | "BSSY" | "SSY" | "PBK" | "PCNT" | "BRK" | "CONT"
    )
}

/// Every function of a listing, in the order printed. Branch targets are
/// resolved to addresses (a label names the instruction that follows it).
pub fn parse_listing(text: &str) -> Vec<SassFunction> {
    let mut functions = Vec::new();
    let mut current: Option<(SassFunction, HashMap<String, u32>, Vec<String>)> = None;
    let finish = |(mut function, labels, _): (SassFunction, HashMap<String, u32>, Vec<String>)| {
        for instruction in &mut function.instructions {
            let Some(last) = instruction.operands.last() else {
                continue;
            };
            instruction.target = match label_reference(last) {
                Some(name) => labels.get(name).copied(),
                None if takes_target(instruction) => last
                    .split_whitespace()
                    .last()
                    .and_then(|o| o.strip_prefix("0x"))
                    .and_then(|hex| u32::from_str_radix(hex, 16).ok()),
                None => None,
            };
        }
        function
    };
    for line in text.lines() {
        if let Some(name) = function_header(line) {
            if let Some(done) = current.take() {
                functions.push(finish(done));
            }
            let function = SassFunction {
                name: name.to_string(),
                instructions: Vec::new(),
            };
            current = Some((function, HashMap::new(), Vec::new()));
            continue;
        }
        // nvdisasm's other sections (`//--------------------- SYMBOLS ---…`) end the function.
        if line.trim_start().starts_with("//---") {
            if let Some(done) = current.take() {
                functions.push(finish(done));
            }
            continue;
        }
        let Some((function, labels, pending)) = current.as_mut() else {
            continue;
        };
        if let Some((address, text)) = instruction_line(line) {
            for name in pending.drain(..) {
                labels.insert(name, address);
            }
            function.instructions.extend(parse_instruction(address, text));
        } else if let Some(name) = label(line) {
            pending.push(name.to_string());
        }
    }
    if let Some(done) = current.take() {
        functions.push(finish(done));
    }
    functions
}

#[cfg(test)]
mod tests {
    use super::parse_listing;

    const NVDISASM: &str = "
//--------------------- .text.twice  --------------------------
\t.section\t.text.twice,\"ax\",@progbits
twice:
.text.twice:
        /*0000*/                   MOV R2, RZ ;
.L_x_1:
        /*0010*/                   IADD3 R2, R2, 0x1, RZ ;
        /*0020*/                   ISETP.NE.U32.AND P0, PT, R2, 0x8, PT ;
        /*0030*/               @P0 BRA `(.L_x_1) ;
        /*0040*/                   EXIT ;
.L_x_2:
        /*0050*/                   BRA `(.L_x_2);
//--------------------- .text.other  --------------------------
other:
        /*0000*/                   EXIT ;
";

    const CUOBJDUMP: &str = "
\t\tFunction : twice
\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM75)\"
        /*0000*/                   MOV R2, RZ ;                    /* 0x000000ff00027202 */
                                                                   /* 0x000fe20000000f00 */
        /*0010*/                   IADD3 R2, R2, 0x1, RZ ;         /* 0x0000000102027810 */
                                                                   /* 0x000fe20007ffe0ff */
        /*0020*/                   ISETP.NE.U32.AND P0, PT, R2, 0x8, PT ; /* 0x000000080200780c */
        /*0030*/               @P0 BRA 0x10 ;                      /* 0xfffffffc00f40947 */
        /*0040*/                   EXIT ;                          /* 0x000000000000794d */
        /*0050*/                   BRA 0x50;                       /* 0xfffffffc00fc7947 */
\t\t..........
";

    #[test]
    fn both_listings_read_the_same() {
        for text in [NVDISASM, CUOBJDUMP] {
            let functions = parse_listing(text);
            let names: Vec<&str> = functions.iter().map(|f| f.name.as_str()).collect();
            assert!(names[0] == "twice", "{names:?}");
            let twice = &functions[0];
            assert_eq!(twice.instructions.len(), 6);
            let branch = &twice.instructions[3];
            assert_eq!((branch.opcode.as_str(), branch.target), ("BRA", Some(0x10)));
            assert_eq!(twice.instructions[5].target, Some(0x50));
            assert_eq!(twice.instructions[1].target, None, "an add has no target");
            let loops = twice.loops();
            assert_eq!(loops.len(), 1, "the unreachable padding branch is no loop: {loops:?}");
            assert_eq!(loops[0].header, 0x10);
            assert_eq!(loops[0].instructions.len(), 3);
        }
        assert_eq!(parse_listing(NVDISASM).len(), 2);
        assert!(parse_listing("no listing here").is_empty());
    }
}
