//! Natural loops of a control-flow graph, for the loop finders of the PTX
//! (`ptx::loops`) and of the SASS (`sass::loops`): the blocks a root
//! reaches, their dominators (the classic iterative solution), and for every
//! back edge (an edge into a block that dominates its source) the loop of its
//! header: the header and every block that reaches the edge's source without
//! passing it.

/// One natural loop: its header block and which blocks belong to it
/// (`members[b]`), nested loops' blocks included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaturalLoop {
    pub header: usize,
    pub members: Vec<bool>,
}

/// The natural loops of the graph `successors` (block → the blocks it may
/// go to), one per header, in header order, among the blocks `roots` reach
/// (a root is an entry: the function's start, a call target).
pub fn natural_loops(successors: &[Vec<usize>], roots: &[usize]) -> Vec<NaturalLoop> {
    let n = successors.len();
    let roots: Vec<usize> = roots.iter().copied().filter(|&r| r < n).collect();
    let mut reachable = vec![false; n];
    let mut work = roots.clone();
    while let Some(b) = work.pop() {
        if !reachable[b] {
            reachable[b] = true;
            work.extend(successors[b].iter().copied());
        }
    }
    let mut predecessors = vec![vec![]; n];
    for (from, tos) in successors.iter().enumerate() {
        for &to in tos {
            predecessors[to].push(from);
        }
    }
    let dominated_by = dominators(&predecessors, &roots, &reachable);
    let mut loops: Vec<NaturalLoop> = Vec::new();
    for (source, tos) in successors.iter().enumerate().filter(|(s, _)| reachable[*s]) {
        for &header in tos.iter().filter(|&&h| dominated_by[source][h]) {
            let index = match loops.iter().position(|l| l.header == header) {
                Some(i) => i,
                None => {
                    let mut members = vec![false; n];
                    members[header] = true;
                    loops.push(NaturalLoop { header, members });
                    loops.len() - 1
                }
            };
            let members = &mut loops[index].members;
            let mut work = vec![source];
            while let Some(b) = work.pop() {
                if !members[b] {
                    members[b] = true;
                    work.extend(predecessors[b].iter().copied().filter(|&p| reachable[p]));
                }
            }
        }
    }
    loops.sort_by_key(|l| l.header);
    loops
}

/// `dominated_by[b][d]`: whether every path from a root to block `b`
/// passes block `d` (blocks no root reaches are dominated by nothing but
/// themselves, and no path through them counts).
fn dominators(predecessors: &[Vec<usize>], roots: &[usize], reachable: &[bool]) -> Vec<Vec<bool>> {
    let n = predecessors.len();
    let mut dominated_by: Vec<Vec<bool>> = (0..n)
        .map(|b| {
            if roots.contains(&b) || !reachable[b] {
                (0..n).map(|d| d == b).collect()
            } else {
                vec![true; n]
            }
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).filter(|b| !roots.contains(b) && reachable[*b]) {
            let mut meet = vec![true; n];
            for &p in predecessors[b].iter().filter(|&&p| reachable[p]) {
                for d in 0..n {
                    meet[d] &= dominated_by[p][d];
                }
            }
            meet[b] = true;
            if meet != dominated_by[b] {
                dominated_by[b] = meet;
                changed = true;
            }
        }
    }
    dominated_by
}

#[cfg(test)]
mod tests {
    use super::natural_loops;

    #[test]
    fn nested_loops_and_unreachable_blocks() {
        // 0 → 1 → 2 → 1 and 2 → 3 → 1: two back edges into header 1; 3 → 4 leaves; 5 → 5 unreachable.
        let successors = vec![vec![1], vec![2], vec![1, 3], vec![1, 4], vec![], vec![5]];
        let loops = natural_loops(&successors, &[0]);
        assert_eq!(loops.len(), 1, "one header, both back edges into it: {loops:?}");
        assert_eq!(loops[0].header, 1);
        assert_eq!(loops[0].members, [false, true, true, true, false, false]);
        // A second root makes the self-loop at 5 reachable.
        let loops = natural_loops(&successors, &[0, 5]);
        assert_eq!(loops.iter().map(|l| l.header).collect::<Vec<_>>(), [1, 5]);
        // An inner loop inside an outer one: 0 → 1 → 2 → 2, 2 → 3 → 1.
        let nested = vec![vec![1], vec![2], vec![2, 3], vec![1, 4], vec![]];
        let loops = natural_loops(&nested, &[0]);
        assert_eq!(loops.iter().map(|l| l.header).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(loops[1].members, [false, false, true, false, false]);
        assert!(natural_loops(&[], &[0]).is_empty());
    }
}
