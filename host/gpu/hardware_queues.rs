//! How many hardware work queues a CUDA context gets (`CUDA_DEVICE_MAX_CONNECTIONS`,
//! 8 by default, read when the context is created). Streams beyond that share
//! queues, and work in one then waits behind work in another that only shares
//! its queue (a false dependency): the guide's staged pipeline over 9–16 streams
//! measured 6–16% over its model on an H100 with 8 queues, against 2–5% at 3–8.

/// Queues the suite asks for: one for every stream it runs at once (16 in `streams`) and more.
pub const HARDWARE_QUEUES: u32 = 32;

const VARIABLE: &str = "CUDA_DEVICE_MAX_CONNECTIONS";

/// Sets `CUDA_DEVICE_MAX_CONNECTIONS` to [`HARDWARE_QUEUES`] unless the user set it;
/// the note for the report says which.
///
/// # Safety
/// Must run before any other thread exists and before any CUDA context is created
/// (it changes the process environment).
pub unsafe fn request_hardware_queues() -> String {
    match std::env::var(VARIABLE) {
        Ok(value) => format!("{VARIABLE}={value}, as set in the environment"),
        Err(_) => {
            // SAFETY: the caller guarantees no other thread reads the environment now.
            unsafe { std::env::set_var(VARIABLE, HARDWARE_QUEUES.to_string()) };
            format!(
                "{VARIABLE}={HARDWARE_QUEUES} (the driver's default is 8): every stream of the streams \
                 experiment gets a hardware queue of its own"
            )
        }
    }
}
