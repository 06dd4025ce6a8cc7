// Package benchratio turns `go test -bench` output in which each
// operation has one sub-benchmark per implementation (for example
// BenchmarkDecodeDeltaInt64/pqgen, .../parquetgo, .../arrowgo) into a
// table of speed ratios of a reference implementation against each peer.
//
// Ratios are computed from cpu-MB/s (throughput by the benchmarking
// thread's CPU time, robust on a shared machine) when both compared results
// report it, else from MB/s, else from ns/op; a ratio above 1 means the reference is faster.
// With -count > 1 the median of the runs is used, or the best run when
// Set.Best is set.
//
// Name elements of the form key=value (benchstat's sub-benchmark
// configuration keys, as in BenchmarkPeers/type=flat/op=write/impl=pqgen)
// are shown and matched by their value: the implementation of that example
// is "pqgen" and its operation is shown as "Peers/flat/write". WriteMetrics
// prints any other reported metric (allocs/row, peak-MiB, ...) side by
// side for every implementation.
package benchratio

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Result is the median measurement of one benchmark for one
// implementation.
type Result struct {
	NsPerOp  float64
	MBPerSec float64 // 0 when not reported
	// CPUMBPerSec is throughput by the benchmarking thread's CPU time
	// (custom metric cpu-MB/s), 0 when not reported.
	CPUMBPerSec float64
	AllocsOp    float64 // -1 when not reported
	// Metrics holds every reported metric by unit (ns/op, MB/s and the
	// custom ones alike).
	Metrics map[string]float64
}

// Set maps operation name -> implementation -> runs.
type Set struct {
	// Best selects the best run (highest MB/s, lowest ns/op) instead of the
	// median when an operation was run several times (-count): on a shared
	// machine interference only ever slows a run down.
	Best bool

	ops   []string // in first-seen order
	runs  map[string]map[string][]Result
	impls []string
}

var lineRE = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// Parse reads benchmark output; lines that are not benchmark results are
// ignored. The implementation is the last '/'-separated element of the
// benchmark name and the operation the rest.
func Parse(r io.Reader) (*Set, error) {
	s := &Set{runs: map[string]map[string][]Result{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := lineRE.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		name := m[1]
		i := strings.LastIndexByte(name, '/')
		if i < 0 {
			continue
		}
		op, impl := name[:i], keyValue(name[i+1:])
		res := Result{AllocsOp: -1, Metrics: map[string]float64{}}
		f := strings.Fields(m[2])
		for j := 0; j+1 < len(f); j += 2 {
			v, err := strconv.ParseFloat(f[j], 64)
			if err != nil {
				continue
			}
			res.Metrics[f[j+1]] = v
			switch f[j+1] {
			case "ns/op":
				res.NsPerOp = v
			case "MB/s":
				res.MBPerSec = v
			case "cpu-MB/s":
				res.CPUMBPerSec = v
			case "allocs/op":
				res.AllocsOp = v
			}
		}
		if res.NsPerOp == 0 {
			continue
		}
		if s.runs[op] == nil {
			s.runs[op] = map[string][]Result{}
			s.ops = append(s.ops, op)
		}
		s.runs[op][impl] = append(s.runs[op][impl], res)
		if !slices.Contains(s.impls, impl) {
			s.impls = append(s.impls, impl)
		}
	}
	return s, sc.Err()
}

// keyValue returns the value of a key=value name element, else elem.
func keyValue(elem string) string {
	if i := strings.IndexByte(elem, '='); i >= 0 {
		return elem[i+1:]
	}
	return elem
}

// displayOp is op without the Benchmark prefix and with key=value
// elements shortened to their values.
func displayOp(op string) string {
	parts := strings.Split(strings.TrimPrefix(op, "Benchmark"), "/")
	for i, p := range parts {
		parts[i] = keyValue(p)
	}
	return strings.Join(parts, "/")
}

// Metric returns the median (or, with Best, the best: largest for rates,
// ending in "/s", smallest otherwise) of unit over the runs of op by impl.
func (s *Set) Metric(op, impl, unit string) (float64, bool) {
	var v []float64
	for _, r := range s.runs[op][impl] {
		if x, ok := r.Metrics[unit]; ok {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return 0, false
	}
	if s.Best {
		if strings.HasSuffix(unit, "/s") {
			return slices.Max(v), true
		}
		return slices.Min(v), true
	}
	return median(v), true
}

// WriteMetrics writes one table per unit: a row per operation reporting
// it, the value of every implementation (ref first), then ref's value
// divided by each peer's, and each variant's of ref (Variant) divided by
// ref's.
func (s *Set) WriteMetrics(w io.Writer, ref string, units ...string) error {
	impls := append([]string{ref}, s.Peers(ref)...)
	for _, unit := range units {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "%s\t", unit)
		for _, im := range impls {
			fmt.Fprintf(tw, "%s\t", im)
		}
		for _, p := range impls[1:] {
			fmt.Fprintf(tw, "%s\t", columnName(ref, p))
		}
		fmt.Fprintln(tw)
		for _, op := range s.ops {
			if _, ok := s.Metric(op, ref, unit); !ok {
				continue
			}
			fmt.Fprintf(tw, "%s\t", displayOp(op))
			for _, im := range impls {
				if v, ok := s.Metric(op, im, unit); ok {
					fmt.Fprintf(tw, "%s\t", formatValue(v))
				} else {
					fmt.Fprintf(tw, "-\t")
				}
			}
			a, _ := s.Metric(op, ref, unit)
			for _, p := range impls[1:] {
				b, ok := s.Metric(op, p, unit)
				switch {
				case ok && Variant(ref, p) && a != 0:
					fmt.Fprintf(tw, "%.2f\t", b/a)
				case ok && !Variant(ref, p) && b != 0:
					fmt.Fprintf(tw, "%.2f\t", a/b)
				default:
					fmt.Fprintf(tw, "-\t")
				}
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

// formatValue prints v with about four significant digits.
func formatValue(v float64) string {
	switch a := math.Abs(v); {
	case a == 0:
		return "0"
	case a >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// Get returns the median result of op for impl.
func (s *Set) Get(op, impl string) (Result, bool) {
	rs := s.runs[op][impl]
	if len(rs) == 0 {
		return Result{}, false
	}
	var ns, mb, cpu, al []float64
	for _, r := range rs {
		ns = append(ns, r.NsPerOp)
		mb = append(mb, r.MBPerSec)
		cpu = append(cpu, r.CPUMBPerSec)
		al = append(al, r.AllocsOp)
	}
	if s.Best {
		return Result{NsPerOp: slices.Min(ns), MBPerSec: slices.Max(mb), CPUMBPerSec: slices.Max(cpu), AllocsOp: median(al)}, true
	}
	return Result{NsPerOp: median(ns), MBPerSec: median(mb), CPUMBPerSec: median(cpu), AllocsOp: median(al)}, true
}

// Ratio returns how many times faster ref is than peer on op (>1: ref is
// faster), and false when either is missing.
func (s *Set) Ratio(op, ref, peer string) (float64, bool) { return s.ratio(op, ref, peer, true) }

// WallRatio is Ratio by wall time only (MB/s, else ns/op), for a
// variant of ref that runs on more cores: its CPU rate says nothing of
// its speed-up.
func (s *Set) WallRatio(op, ref, peer string) (float64, bool) { return s.ratio(op, ref, peer, false) }

// ratio is Ratio, by CPU rate first when cpu is set.
func (s *Set) ratio(op, ref, peer string, cpu bool) (float64, bool) {
	a, ok1 := s.Get(op, ref)
	b, ok2 := s.Get(op, peer)
	if !ok1 || !ok2 {
		return 0, false
	}
	if cpu && a.CPUMBPerSec > 0 && b.CPUMBPerSec > 0 {
		return a.CPUMBPerSec / b.CPUMBPerSec, true
	}
	if a.MBPerSec > 0 && b.MBPerSec > 0 {
		return a.MBPerSec / b.MBPerSec, true
	}
	return b.NsPerOp / a.NsPerOp, true
}

// Variant reports whether impl is a variant of ref, named ref-something
// (pqgen-par: pqgen with parallelism): the tables compare it to ref the
// other way round, impl÷ref, its speed-up.
func Variant(ref, impl string) bool { return strings.HasPrefix(impl, ref+"-") }

// columnName is the header of the column comparing ref and p.
func columnName(ref, p string) string {
	if Variant(ref, p) {
		return p + "÷" + ref
	}
	return ref + "÷" + p
}

// Peers returns the implementations other than ref, in first-seen order.
func (s *Set) Peers(ref string) []string {
	var p []string
	for _, i := range s.impls {
		if i != ref {
			p = append(p, i)
		}
	}
	return p
}

// WriteTable writes one row per operation: the ratio of ref against each
// peer ("-" when missing), or of each variant of ref (Variant) against
// ref in wall time, then ref's MB/s and allocs/op for context. A final
// row gives the geometric mean of each column.
func (s *Set) WriteTable(w io.Writer, ref string) error {
	peers := s.Peers(ref)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "operation\t")
	for _, p := range peers {
		fmt.Fprintf(tw, "%s\t", columnName(ref, p))
	}
	fmt.Fprintf(tw, "%s (cpu-)MB/s\t%s allocs/op\t\n", ref, ref)
	logSum := make([]float64, len(peers))
	cnt := make([]int, len(peers))
	for _, op := range s.ops {
		r, ok := s.Get(op, ref)
		if !ok {
			continue
		}
		fmt.Fprintf(tw, "%s\t", displayOp(op))
		for i, p := range peers {
			x, ok := s.Ratio(op, ref, p)
			if Variant(ref, p) {
				x, ok = s.WallRatio(op, p, ref)
			}
			if ok {
				fmt.Fprintf(tw, "%.2fx\t", x)
				logSum[i] += math.Log(x)
				cnt[i]++
			} else {
				fmt.Fprintf(tw, "-\t")
			}
		}
		mb := "-"
		if r.CPUMBPerSec > 0 {
			mb = fmt.Sprintf("%.0f", r.CPUMBPerSec)
		} else if r.MBPerSec > 0 {
			mb = fmt.Sprintf("%.0f", r.MBPerSec)
		}
		al := "-"
		if r.AllocsOp >= 0 {
			al = fmt.Sprintf("%.0f", r.AllocsOp)
		}
		fmt.Fprintf(tw, "%s\t%s\t\n", mb, al)
	}
	fmt.Fprintf(tw, "geomean\t")
	for i := range peers {
		if cnt[i] > 0 {
			fmt.Fprintf(tw, "%.2fx\t", math.Exp(logSum[i]/float64(cnt[i])))
		} else {
			fmt.Fprintf(tw, "-\t")
		}
	}
	fmt.Fprintf(tw, "\t\t\n")
	return tw.Flush()
}
