// Command gqtrace reads an execution trace of a gq run and says how well it
// used its Ps: the time spent with each number of goroutines running, the
// share with fewer than -low running, and each stretch of at least -min
// ms with at most -max running, named by the goroutine that ran (its
// outermost gq frame), the gq stack that woke the goroutine which ended
// the stretch (where the serial phase handed work out), and the CPU
// profile samples taken in it. At 16 cores a serial stretch of S ms idles
// 15*S core-ms, so these are what stop a query scaling.
//
//	GOMAXPROCS=16 GQ_TRACE=t.out GQ_CPUPROFILE=p.out gq --threads 16 --data DIR -f q.sql
//	cd scripts/gqtrace && go run . -min 3 t.out
//
// GOMAXPROCS must be set: on a machine with fewer cores the runtime
// otherwise keeps as many Ps as cores and no more goroutines run at once,
// whatever --threads says. With GQ_CPUPROFILE the trace carries the CPU
// samples (10 ms apart, so a stretch of a few ms often has none).
// A module of its own so that gq does not depend on golang.org/x/exp.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"golang.org/x/exp/trace"
)

type stretch struct {
	start, end trace.Time
	g          trace.GoID
	endStack   string // stack of the event that woke the goroutine which ended the stretch
	samples    map[string]int
}

func gqFrames(s trace.Stack, n int) string {
	var out []string
	for f := range s.Frames() {
		fn := f.Func
		if strings.HasPrefix(fn, "gq/") {
			fn = strings.TrimPrefix(fn, "gq/")
			out = append(out, fmt.Sprintf("%s:%d", fn, f.Line))
			if len(out) >= n {
				break
			}
		}
	}
	return strings.Join(out, " < ")
}

func leafFrames(s trace.Stack, n int) string {
	var out []string
	for f := range s.Frames() {
		fn := f.Func
		fn = strings.TrimPrefix(fn, "gq/")
		out = append(out, fn)
		if len(out) >= n {
			break
		}
	}
	return strings.Join(out, " < ")
}

func main() {
	minMs := flag.Float64("min", 2, "list stretches of at least this many ms")
	maxRun := flag.Int("max", 1, "a stretch is where at most this many goroutines run")
	low := flag.Int("low", 4, "report fraction of time with fewer than this many running")
	flag.Parse()
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fail(err)
	}
	r, err := trace.NewReader(f)
	if err != nil {
		fail(err)
	}
	running := map[trace.GoID]bool{}
	wakeStack := map[trace.GoID]string{}
	label := map[trace.GoID]string{}
	var first, last, segStart trace.Time
	count := 0
	hist := map[int]float64{} // running count -> ns
	var stretches []*stretch
	var cur *stretch
	var lowNs float64
	lowSamples := map[string]int{}
	gcOn := 0
	var gcNs float64
	var gcStart trace.Time
	setCount := func(t trace.Time, n int, cause trace.GoID) {
		if n == count {
			return
		}
		d := float64(t - segStart)
		hist[count] += d
		if count < *low {
			lowNs += d
		}
		segStart = t
		old := count
		count = n
		if n <= *maxRun && old > *maxRun {
			cur = &stretch{start: t, samples: map[string]int{}}
		} else if n > *maxRun && old <= *maxRun && cur != nil {
			cur.end = t
			cur.endStack = wakeStack[cause]
			for g := range running {
				cur.g = g
			}
			stretches = append(stretches, cur)
			cur = nil
		}
	}
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			fail(err)
		}
		t := ev.Time()
		if first == 0 {
			first = t
			segStart = t
		}
		last = t
		switch ev.Kind() {
		case trace.EventStateTransition:
			st := ev.StateTransition()
			if st.Resource.Kind != trace.ResourceGoroutine {
				continue
			}
			g := st.Resource.Goroutine()
			from, to := st.Goroutine()
			if from == trace.GoNotExist || from == trace.GoUndetermined {
				if l := gqFrames(st.Stack, 1); l != "" {
					label[g] = l
				} else if _, ok := label[g]; !ok {
					label[g] = leafFrames(st.Stack, 1)
				}
			}
			if to == trace.GoRunnable && from != trace.GoRunning {
				wakeStack[g] = gqFrames(ev.Stack(), 4)
			}
			if to == trace.GoRunning && !running[g] {
				running[g] = true
				setCount(t, count+1, g)
			} else if from == trace.GoRunning && to != trace.GoRunning && running[g] {
				if cur != nil && count == 1 {
					cur.g = g
				}
				delete(running, g)
				setCount(t, count-1, g)
			}
		case trace.EventStackSample:
			k := gqFrames(ev.Stack(), 2)
			if k == "" {
				k = "(runtime) " + leafFrames(ev.Stack(), 2)
			}
			if cur != nil {
				cur.samples[k]++
			}
			if count < *low {
				lowSamples[k]++
			}
		case trace.EventRangeBegin:
			if strings.HasPrefix(ev.Range().Name, "GC concurrent mark") {
				if gcOn == 0 {
					gcStart = t
				}
				gcOn++
			}
		case trace.EventRangeEnd:
			if strings.HasPrefix(ev.Range().Name, "GC concurrent mark") && gcOn > 0 {
				gcOn--
				if gcOn == 0 {
					gcNs += float64(t - gcStart)
				}
			}
		}
	}
	setCount(last, -1, 0)
	total := float64(last - first)
	fmt.Printf("trace %.1f ms; GC mark %.1f ms; time with <%d running: %.1f ms (%.1f%%)\n", total/1e6, gcNs/1e6, *low, lowNs/1e6, 100*lowNs/total)
	var ks []int
	for k := range hist {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	fmt.Print("running:ms ")
	for _, k := range ks {
		if k >= 0 {
			fmt.Printf(" %d:%.1f", k, hist[k]/1e6)
		}
	}
	fmt.Println()
	var serial float64
	for _, s := range stretches {
		serial += float64(s.end - s.start)
	}
	fmt.Printf("stretches with <=%d running: %d, %.1f ms in all\n", *maxRun, len(stretches), serial/1e6)
	for _, s := range stretches {
		d := float64(s.end-s.start) / 1e6
		if d < *minMs {
			continue
		}
		var top []string
		for k, v := range s.samples {
			top = append(top, fmt.Sprintf("%d×%s", v, k))
		}
		sort.Strings(top)
		if len(top) > 3 {
			top = top[:3]
		}
		fmt.Printf("%8.1f ms at %7.1f: G%d [%s]\n     ended by wake at: %s\n     samples: %s\n", d, float64(s.start-first)/1e6, s.g, label[s.g], s.endStack, strings.Join(top, "; "))
	}
	type kv struct {
		k string
		v int
	}
	var lv []kv
	for k, v := range lowSamples {
		lv = append(lv, kv{k, v})
	}
	sort.Slice(lv, func(i, j int) bool { return lv[i].v > lv[j].v })
	fmt.Printf("CPU samples while <%d running (10 ms each):\n", *low)
	for i, x := range lv {
		if i >= 15 {
			break
		}
		fmt.Printf("  %4d %s\n", x.v, x.k)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gqtrace:", err)
	os.Exit(1)
}
