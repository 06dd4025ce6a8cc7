// Command demo is what `make demo` runs: pqgen's main job on a bundled
// example, end to end.
//
//  1. Generate: run the generator on examples/generated/metric.schema (Parquet
//     schema text) in memory, and check that the result is the committed
//     examples/generated/metric_parquet.go.
//  2. Write: 100,000 Metric rows through the generated writer
//     (WriteMetricFile: temp file, fsync, rename).
//  3. Read: the rows back through the generated reader, into structs,
//     without reflection, and compare them with what was written.
//  4. Inspect: the file's footer, as `pqgen inspect` prints it.
package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"time"

	"github.com/pqgen/pqgen/examples/generated"
	"github.com/pqgen/pqgen/gen"
	"github.com/pqgen/pqgen/internal/inspect"
	pq "github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

const rows = 100_000

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run() error {
	dir := exampleDir()
	// 1. Generate.
	text, err := os.ReadFile(filepath.Join(dir, "metric.schema"))
	if err != nil {
		return err
	}
	pkg, err := gen.FromSchemaText("metric.schema", string(text), "generated", "Metric")
	if err != nil {
		return err
	}
	pkg.Args = "-schema metric.schema -package generated -type Metric -o metric_parquet.go"
	files, err := gen.Generate(pkg, "metric_parquet.go")
	if err != nil {
		return err
	}
	code := files["metric_parquet.go"]
	committed, err := os.ReadFile(filepath.Join(dir, "metric_parquet.go"))
	if err != nil {
		return err
	}
	state := "identical to the committed examples/generated/metric_parquet.go"
	if !bytes.Equal(code, committed) {
		state = "DIFFERENT from the committed file: run make generate"
	}
	fmt.Printf("1. generated %d lines of Go for type Metric from metric.schema (%s)\n", bytes.Count(code, []byte("\n")), state)

	// 2. Write.
	data := makeRows(rows)
	tmp, err := os.MkdirTemp("", "pqgen-demo-")
	if err != nil {
		return err
	}
	if os.Getenv("PQGEN_DEMO_KEEP") == "" {
		defer os.RemoveAll(tmp)
	}
	path := filepath.Join(tmp, "metrics.parquet")
	start := time.Now()
	if err := generated.WriteMetricFile(path, data, pq.WithCompression(meta.Zstd, 0), pq.WithColumnBloomFilter("name", 100, 0.01)); err != nil {
		return err
	}
	wrote := time.Since(start)
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	fmt.Printf("2. wrote %d rows with NewMetricWriter to %s: %d bytes (%.1f bytes/row) in %v\n", rows, path, st.Size(), float64(st.Size())/rows, wrote.Round(time.Millisecond))

	// 3. Read.
	start = time.Now()
	back, err := generated.ReadMetricFile(path)
	if err != nil {
		return err
	}
	read := time.Since(start)
	if len(back) != len(data) {
		return fmt.Errorf("read %d rows, wrote %d", len(back), len(data))
	}
	for i := range data {
		if !sameMetric(&data[i], &back[i]) {
			return fmt.Errorf("row %d differs:\nwrote %+v\nread  %+v", i, data[i], back[i])
		}
	}
	fmt.Printf("3. read %d rows back with NewMetricReader in %v: every row equals what was written\n", len(back), read.Round(time.Millisecond))
	for _, m := range back[:2] {
		fmt.Printf("   %s\n", describe(&m))
	}

	// 4. Inspect.
	fmt.Printf("4. pqgen inspect %s:\n\n", filepath.Base(path))
	return inspect.Run(os.Stdout, path, inspect.Options{})
}

// exampleDir finds examples/generated from the source tree (make demo runs
// from the repository root).
func exampleDir() string {
	if _, err := os.Stat("examples/generated/metric.schema"); err == nil {
		return "examples/generated"
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "generated")
}

func str(s string) *string { return &s }

func makeRows(n int) []generated.Metric {
	names := []string{"cpu.load", "mem.used", "disk.io", "net.rx", "net.tx"}
	hosts := []string{"alpha", "beta", "gamma"}
	base := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	out := make([]generated.Metric, n)
	for i := range out {
		m := &out[i]
		m.Name = names[i%len(names)]
		m.TS = base.Add(time.Duration(i) * time.Second)
		m.Value = math.Round(math.Sin(float64(i)/100)*10000) / 100
		m.Day = base
		if i%3 != 0 {
			m.Labels = map[string]*string{"host": str(hosts[i%len(hosts)])}
			if i%7 == 0 {
				m.Labels["note"] = nil
			}
		}
		if i%4 != 0 {
			m.Samples = []float64{float64(i % 10), float64(i%10) / 2}
		}
		if i%5 == 0 {
			var t [16]byte
			t[0], t[15] = byte(i), byte(i>>8)
			m.Trace = &t
		}
		if i%2 == 0 {
			l := int8(i % 100)
			m.Level = &l
		}
	}
	return out
}

func sameMetric(a, b *generated.Metric) bool {
	return a.Name == b.Name && a.TS.Equal(b.TS) && a.Value == b.Value && a.Day.Equal(b.Day) &&
		reflect.DeepEqual(a.Labels, b.Labels) && reflect.DeepEqual(a.Samples, b.Samples) &&
		reflect.DeepEqual(a.Trace, b.Trace) && reflect.DeepEqual(a.Level, b.Level)
}

func describe(m *generated.Metric) string {
	var labels []string
	for k, v := range m.Labels {
		if v == nil {
			labels = append(labels, k+"=null")
		} else {
			labels = append(labels, k+"="+*v)
		}
	}
	return fmt.Sprintf("{name: %s, ts: %s, value: %g, labels: [%s], samples: %v}", m.Name, m.TS.Format(time.RFC3339), m.Value, strings.Join(labels, " "), m.Samples)
}
