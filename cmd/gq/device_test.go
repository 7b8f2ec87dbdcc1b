package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"gq/arrowgpu"
)

type fakeReport string

func (r fakeReport) String() string { return string(r) }

func TestDeviceFlag(t *testing.T) {
	defer func(p func() (fmt.Stringer, error)) { probeGPU = p }(probeGPU)
	missing := fmt.Errorf("GPU unavailable: %w: tried libcuda.so.1", arrowgpu.ErrNoDriver)
	// With the probe faked to succeed, the engine still opens the real
	// device: without one, the query fails saying what is missing.
	fakeCode, fakeOut := 1, ""
	if _, err := arrowgpu.Probe(); err == nil {
		fakeCode, fakeOut = 0, "a\n1\n"
	}
	for _, tc := range []struct {
		device string
		probe  error
		code   int
		out    string
		errIn  string
	}{
		{"auto", missing, 0, "a\n1\n", ""},
		{"cpu", missing, 0, "a\n1\n", ""},
		{"gpu", missing, 1, "", "--device gpu: GPU unavailable: CUDA driver libcuda.so.1 not available"},
		{"gpu", nil, fakeCode, fakeOut, "operators run on the GPU where they can"},
		{"tpu", nil, 2, "", "unknown --device"},
	} {
		probeGPU = func() (fmt.Stringer, error) {
			if tc.probe != nil {
				return nil, tc.probe
			}
			return fakeReport("fake GPU"), nil
		}
		var out, errOut bytes.Buffer
		code := run([]string{"--device", tc.device, "-c", "select 1 as a"}, strings.NewReader(""), &out, &errOut)
		if code != tc.code || out.String() != tc.out || !strings.Contains(errOut.String(), tc.errIn) {
			t.Errorf("--device %s: code %d, stdout %q, stderr %q", tc.device, code, out.String(), errOut.String())
		}
	}
}

// On a machine without a GPU (CI), the real probe names the driver.
func TestDeviceGPUReal(t *testing.T) {
	if _, err := arrowgpu.Probe(); err == nil {
		t.Skip("a GPU is usable here")
	} else if !errors.Is(err, arrowgpu.ErrNoDriver) && !errors.Is(err, arrowgpu.ErrNoDevice) && !errors.Is(err, arrowgpu.ErrNoNVRTC) {
		t.Fatalf("probe error of no known kind: %v", err)
	}
	var out, errOut bytes.Buffer
	t.Setenv("GQ_DEVICE", "gpu")
	code := run([]string{"-c", "select 1"}, strings.NewReader(""), &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "GPU unavailable") {
		t.Errorf("GQ_DEVICE=gpu: code %d, stderr %q", code, errOut.String())
	}
}
