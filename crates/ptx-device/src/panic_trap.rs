//! The nvptx build's panic handler (feature `panic-handler`, on by default).

/// On the GPU a panic (an arithmetic overflow check, an `unreachable!`, a
/// failed `assert!`) traps: PTX `trap`, after which the launch fails with
/// `CUDA_ERROR_ILLEGAL_INSTRUCTION` and the host reports it. The message is
/// dropped (there is no `printf` here).
#[panic_handler]
fn trap_on_panic(_: &core::panic::PanicInfo) -> ! {
    core::intrinsics::abort_immediate()
}
