package arrowgpu

import (
	"fmt"
	"strings"
)

// Probe reports whether gq can run on a GPU here: the driver loads, a
// device is visible and NVRTC loads. It opens no context (cheap enough for
// start-up); its error names the first thing missing (ErrNoDriver,
// ErrNoDevice, ErrNoNVRTC; kind errs.Unsupported).
func Probe() (Report, error) {
	var r Report
	d, err := Load()
	if err != nil {
		return r, err
	}
	r.Driver, r.CUDA, r.Devices = d.Path(), d.Version(), d.DeviceCount()
	if r.GPU, _, err = d.deviceInfo(0); err != nil {
		return r, err
	}
	c, err := LoadNVRTC()
	if err != nil {
		return r, err
	}
	r.NVRTC, r.NVRTCVersion, r.NVRTCArchs = c.Path(), c.Version(), c.Archs
	return r, nil
}

// Report is what Probe found.
type Report struct {
	Driver       string // library path
	CUDA         string // driver's CUDA version
	Devices      int
	GPU          Info // device 0
	NVRTC        string
	NVRTCVersion string
	NVRTCArchs   []int
}

func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "driver %s (CUDA %s), %d device(s); %s", r.Driver, r.CUDA, r.Devices, r.GPU)
	if r.NVRTC != "" {
		fmt.Fprintf(&b, "; NVRTC %s (%s), archs %v", r.NVRTCVersion, r.NVRTC, r.NVRTCArchs)
	}
	return b.String()
}
