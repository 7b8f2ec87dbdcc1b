package memory

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"

	"gq/errs"
)

// Tier is a kind of memory, fastest first. Spilling moves data one tier
// down: DEVICE → HOST → DISK (PINNED_HOST is host memory usable for
// device transfers).
type Tier int

const (
	Device Tier = iota
	PinnedHost
	Host
	Disk
	NumTiers int = iota
)

// Unlimited is the limit of a tier without one.
const Unlimited int64 = math.MaxInt64

var tierNames = [...]string{"DEVICE", "PINNED_HOST", "HOST", "DISK"}

func (t Tier) String() string {
	if t < 0 || int(t) >= NumTiers {
		return "Tier(" + strconv.Itoa(int(t)) + ")"
	}
	return tierNames[t]
}

// Limits holds a limit per tier, in bytes (Unlimited: none).
type Limits [NumTiers]int64

// NoLimits returns Limits with every tier unlimited.
func NoLimits() Limits {
	var l Limits
	for i := range l {
		l[i] = Unlimited
	}
	return l
}

// ParseLimit reads a size: plain bytes ("1048576"), a binary or decimal
// unit ("4GiB", "512MiB", "2GB", "64k"), or a percentage of total ("80%").
// "" and "0" mean Unlimited, as do "none" and "unlimited".
func ParseLimit(s string, total int64) (int64, error) {
	s = strings.TrimSpace(s)
	low := strings.ToLower(s)
	switch low {
	case "", "0", "none", "unlimited":
		return Unlimited, nil
	}
	if strings.HasSuffix(low, "%") {
		p, err := strconv.ParseFloat(strings.TrimSpace(low[:len(low)-1]), 64)
		if err != nil || p <= 0 || p > 100 {
			return 0, errs.New(errs.Syntax, "bad memory limit %q: a percentage must be in (0, 100]", s)
		}
		if total <= 0 {
			return 0, errs.New(errs.Unsupported, "memory limit %q: the machine's memory size is unknown; give bytes", s)
		}
		return int64(float64(total) * p / 100), nil
	}
	i := len(low)
	for i > 0 && (low[i-1] < '0' || low[i-1] > '9') && low[i-1] != '.' {
		i--
	}
	num, unit := strings.TrimSpace(low[:i]), strings.TrimSpace(low[i:])
	mult, ok := units[unit]
	if !ok {
		return 0, errs.New(errs.Syntax, "bad memory limit %q: unknown unit %q (use B, KiB, MiB, GiB, TiB, KB, MB, GB or %%)", s, unit)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || v*float64(mult) >= math.MaxInt64 {
		return 0, errs.New(errs.Syntax, "bad memory limit %q", s)
	}
	n := int64(v * float64(mult))
	if n == 0 {
		return Unlimited, nil
	}
	return n, nil
}

var units = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "kb": 1000,
	"m": 1 << 20, "mib": 1 << 20, "mb": 1000 * 1000,
	"g": 1 << 30, "gib": 1 << 30, "gb": 1000 * 1000 * 1000,
	"t": 1 << 40, "tib": 1 << 40, "tb": 1000 * 1000 * 1000 * 1000,
}

// HostMemory is the machine's RAM in bytes (MemTotal of /proc/meminfo),
// or 0 where unknown.
func HostMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// envNames are the environment variables LimitsFromEnv reads, per tier
// (like rapidsmpf's RAPIDSMPF_* options).
var envNames = [NumTiers]string{
	Device:     "GQ_DEVICE_MEMORY_LIMIT",
	PinnedHost: "GQ_PINNED_MEMORY_LIMIT",
	Host:       "GQ_MEMORY_LIMIT",
	Disk:       "GQ_DISK_LIMIT",
}

// LimitsFromEnv returns the limits the GQ_*_LIMIT variables set (unset:
// Unlimited), read through lookup: a binary's edge passes os.LookupEnv,
// a test a map's. Percentages of DEVICE are not known here: the GPU code
// resolves them against the device's memory.
func LimitsFromEnv(lookup func(string) (string, bool)) (Limits, error) {
	l := NoLimits()
	for t, name := range envNames {
		v, ok := lookup(name)
		if !ok {
			continue
		}
		total := HostMemory()
		if Tier(t) == Device {
			total = 0
		}
		n, err := ParseLimit(v, total)
		if err != nil {
			return l, errs.Wrap(errs.Syntax, err, "%s", name)
		}
		l[t] = n
	}
	return l, nil
}

// SpillAlwaysFromEnv reports whether GQ_SPILL_ALWAYS, read through
// getenv (os.Getenv at a binary's edge), asks for spilling at every
// opportunity (a test mode that runs every query through the spill
// paths).
func SpillAlwaysFromEnv(getenv func(string) string) bool {
	v := strings.ToLower(getenv("GQ_SPILL_ALWAYS"))
	return v != "" && v != "0" && v != "false" && v != "no"
}
