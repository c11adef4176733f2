//! Why the GPU's clocks are below their maximum (`nvmlClocksEventReasons`,
//! called throttle reasons before driver 535): the bits NVML sets, typed.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One reason the clocks are held down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClockEventReason {
    /// Nothing runs: clocks drop to save power (not a slowdown of any measurement).
    GpuIdle,
    /// Application clocks set by an administrator (`nvidia-smi -ac`).
    ApplicationClocksSetting,
    /// The software power cap: the board reached its power limit.
    SwPowerCap,
    /// Hardware slowdown (temperature or power brake, signalled by the board).
    HwSlowdown,
    /// Clocks held to those of the other GPUs of a sync-boost group.
    SyncBoost,
    /// The driver lowered clocks to keep the GPU or memory below its temperature limit.
    SwThermalSlowdown,
    /// The hardware's own thermal protection.
    HwThermalSlowdown,
    /// The power-brake signal of the system (an external power supply limit).
    HwPowerBrakeSlowdown,
    /// Clocks limited by the display clock setting.
    DisplayClockSetting,
    /// A bit this suite does not know (a newer driver's reason).
    Other(u64),
}

/// The known bits, in NVML's order.
const KNOWN: [(u64, ClockEventReason); 9] = [
    (0x1, ClockEventReason::GpuIdle),
    (0x2, ClockEventReason::ApplicationClocksSetting),
    (0x4, ClockEventReason::SwPowerCap),
    (0x8, ClockEventReason::HwSlowdown),
    (0x10, ClockEventReason::SyncBoost),
    (0x20, ClockEventReason::SwThermalSlowdown),
    (0x40, ClockEventReason::HwThermalSlowdown),
    (0x80, ClockEventReason::HwPowerBrakeSlowdown),
    (0x100, ClockEventReason::DisplayClockSetting),
];

impl ClockEventReason {
    /// Every reason set in `bits` (as `nvmlDeviceGetCurrentClocksEventReasons` returns them),
    /// unknown bits one by one.
    pub fn from_bits(bits: u64) -> Vec<Self> {
        let mut reasons: Vec<Self> = KNOWN
            .iter()
            .filter(|(bit, _)| bits & bit != 0)
            .map(|(_, reason)| *reason)
            .collect();
        let known = KNOWN.iter().fold(0, |all, (bit, _)| all | bit);
        let mut unknown = bits & !known;
        while unknown != 0 {
            let lowest = unknown.isolate_lowest_one();
            reasons.push(Self::Other(lowest));
            unknown &= !lowest;
        }
        reasons
    }

    /// Whether it lowers the clocks under load: power and thermal limits, and hardware
    /// slowdowns. Idle, administrator settings and sync boost are not counted as throttling.
    pub fn is_slowdown(self) -> bool {
        matches!(
            self,
            Self::SwPowerCap
                | Self::HwSlowdown
                | Self::SwThermalSlowdown
                | Self::HwThermalSlowdown
                | Self::HwPowerBrakeSlowdown
        )
    }

    pub fn label(self) -> String {
        match self {
            Self::GpuIdle => "idle".into(),
            Self::ApplicationClocksSetting => "application clocks set".into(),
            Self::SwPowerCap => "power-capped".into(),
            Self::HwSlowdown => "hardware slowdown".into(),
            Self::SyncBoost => "sync boost".into(),
            Self::SwThermalSlowdown => "thermal slowdown".into(),
            Self::HwThermalSlowdown => "hardware thermal slowdown".into(),
            Self::HwPowerBrakeSlowdown => "power brake".into(),
            Self::DisplayClockSetting => "display clock setting".into(),
            Self::Other(bit) => format!("reason bit {bit:#x}"),
        }
    }
}

impl fmt::Display for ClockEventReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::ClockEventReason::{self, *};

    #[test]
    fn bits_decode_to_reasons() {
        assert_eq!(ClockEventReason::from_bits(0), vec![]);
        assert_eq!(ClockEventReason::from_bits(0x1), vec![GpuIdle]);
        assert_eq!(
            ClockEventReason::from_bits(0x4 | 0x20),
            vec![SwPowerCap, SwThermalSlowdown]
        );
        assert_eq!(
            ClockEventReason::from_bits(0x8 | 0x40 | 0x80),
            vec![HwSlowdown, HwThermalSlowdown, HwPowerBrakeSlowdown]
        );
        assert_eq!(
            ClockEventReason::from_bits(0x100 | 0x200 | 0x8000),
            vec![DisplayClockSetting, Other(0x200), Other(0x8000)]
        );
    }

    #[test]
    fn only_power_and_thermal_limits_count_as_slowdowns() {
        let slowdowns: Vec<_> = ClockEventReason::from_bits(0x1ff)
            .into_iter()
            .filter(|r| r.is_slowdown())
            .collect();
        assert_eq!(
            slowdowns,
            vec![
                SwPowerCap,
                HwSlowdown,
                SwThermalSlowdown,
                HwThermalSlowdown,
                HwPowerBrakeSlowdown
            ]
        );
        assert_eq!(SwPowerCap.to_string(), "power-capped");
        assert_eq!(serde_json::to_string(&SwPowerCap).unwrap(), "\"sw-power-cap\"");
        assert_eq!(serde_json::to_string(&Other(0x200)).unwrap(), "{\"other\":512}");
    }
}
