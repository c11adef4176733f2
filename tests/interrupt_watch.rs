//! `interrupt_watch` takes SIGINT in its own thread whatever handlers the
//! libraries install. The test runs itself as a child that starts the watch,
//! then installs a SIGINT handler that exits at once with status 77 (as a
//! library's cleanup handler may) and starts a few threads; the parent sends
//! SIGINT twice at once (as `timeout` does: to the process, then to its
//! group), then once more a second later. The child must report one
//! interruption, then a second, and exit through the watch (status 130):
//! with SIGINT unblocked anywhere, the library's handler would end it with 77.
//! Its own `main` (harness = false): no test threads exist that could take a signal.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use ptxsuite::interrupt_watch::{Interruption, watch_interrupts};

const CHILD: &str = "PTXSUITE_INTERRUPT_WATCH_CHILD";

extern "C" fn library_cleanup(_: libc::c_int) {
    // SAFETY: _exit is async-signal-safe.
    unsafe { libc::_exit(77) };
}

fn child() -> ! {
    watch_interrupts(|kind| match kind {
        Interruption::First => println!("first"),
        Interruption::Repeat => println!("repeat"),
        Interruption::Second => {
            println!("second");
            std::process::exit(130);
        }
    })
    .expect("the watch starts");
    // SAFETY: installs a plain handler for SIGINT, as a library would after the watch started.
    unsafe { libc::signal(libc::SIGINT, library_cleanup as *const () as libc::sighandler_t) };
    let workers: Vec<_> = (0..4)
        .map(|_| std::thread::spawn(|| std::thread::sleep(Duration::from_secs(20))))
        .collect();
    println!("ready");
    std::thread::sleep(Duration::from_secs(20));
    drop(workers);
    println!("not interrupted");
    std::process::exit(1);
}

fn main() {
    if std::env::var_os(CHILD).is_some() {
        child();
    }
    let mut child = Command::new(std::env::current_exe().expect("the test's own path"))
        .env(CHILD, "1")
        .stdout(Stdio::piped())
        .spawn()
        .expect("the child starts");
    let pid = child.id() as libc::pid_t;
    let mut lines = BufReader::new(child.stdout.take().expect("piped")).lines();
    let mut next = || lines.next().and_then(|l| l.ok()).unwrap_or_default();
    assert_eq!(next(), "ready");
    // SAFETY: signals a child of this process that is still running (it printed "ready").
    unsafe {
        libc::kill(pid, libc::SIGINT);
        libc::kill(pid, libc::SIGINT);
    }
    assert_eq!(next(), "first", "the first SIGINT is one interruption");
    std::thread::sleep(Duration::from_secs(1));
    // SAFETY: as above; the child is waiting for a second interruption.
    unsafe { libc::kill(pid, libc::SIGINT) };
    let rest: Vec<String> = std::iter::from_fn(|| lines.next().and_then(|l| l.ok())).collect();
    let status = child.wait().expect("the child ends");
    assert!(
        rest == ["second"] || rest == ["repeat", "second"],
        "after the first interruption: {rest:?}"
    );
    assert_eq!(
        status.code(),
        Some(130),
        "the child ended through the watch: {status:?}"
    );
    println!(
        "interrupt_watch: SIGINT twice at once is one interruption, a later one a second; a library's handler never ran"
    );
}
