package benchratio

import (
	"bytes"
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkDecodeDeltaInt64/pqgen-2     	    100	    100000 ns/op	 800.00 MB/s	       0 B/op	       0 allocs/op
BenchmarkDecodeDeltaInt64/pqgen-2     	    100	    120000 ns/op	 700.00 MB/s	       0 B/op	       0 allocs/op
BenchmarkDecodeDeltaInt64/pqgen-2     	    100	    110000 ns/op	 750.00 MB/s	       0 B/op	       0 allocs/op
BenchmarkDecodeDeltaInt64/parquetgo-2 	    100	    200000 ns/op	 375.00 MB/s	       0 B/op	       0 allocs/op
BenchmarkDecodeDeltaInt64/arrowgo-2   	    100	    300000 ns/op	       1 allocs/op
BenchmarkEncodeX/w1/pqgen-2   	    100	    50 ns/op
BenchmarkCPU/pqgen-2   	    100	    50 ns/op	 10.00 MB/s	 300.0 cpu-MB/s
BenchmarkCPU/parquetgo-2   	    100	    50 ns/op	 20.00 MB/s	 100.0 cpu-MB/s
BenchmarkEncodeX/w1/parquetgo-2   	    100	    25 ns/op
PASS
`

func TestParseAndRatio(t *testing.T) {
	s, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := s.Get("BenchmarkDecodeDeltaInt64", "pqgen"); r.MBPerSec != 750 || r.NsPerOp != 110000 {
		t.Fatalf("median: %+v", r)
	}
	if x, _ := s.Ratio("BenchmarkDecodeDeltaInt64", "pqgen", "parquetgo"); x != 2 {
		t.Fatalf("MB/s ratio %v", x)
	}
	// arrowgo reports no MB/s: ns/op ratio.
	if x, _ := s.Ratio("BenchmarkDecodeDeltaInt64", "pqgen", "arrowgo"); x < 2.72 || x > 2.73 {
		t.Fatalf("ns ratio %v", x)
	}
	if x, _ := s.Ratio("BenchmarkEncodeX/w1", "pqgen", "parquetgo"); x != 0.5 {
		t.Fatalf("ratio %v", x)
	}
	if x, _ := s.Ratio("BenchmarkCPU", "pqgen", "parquetgo"); x != 3 {
		t.Fatalf("cpu-MB/s ratio %v", x)
	}
	s.Best = true
	if r, _ := s.Get("BenchmarkDecodeDeltaInt64", "pqgen"); r.MBPerSec != 800 || r.NsPerOp != 100000 {
		t.Fatalf("best: %+v", r)
	}
	s.Best = false
	var buf bytes.Buffer
	if err := s.WriteTable(&buf, "pqgen"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"pqgen÷parquetgo", "DecodeDeltaInt64", "2.00x", "0.50x", "geomean"} {
		if !strings.Contains(out, want) {
			t.Fatalf("table lacks %q:\n%s", want, out)
		}
	}
}

const keyed = `BenchmarkPeers/type=flat/op=write/impl=pqgen-2   1  100 ns/op  2.5 allocs/row  300.0 cpu-MB/s  10.0 peak-MiB
BenchmarkPeers/type=flat/op=write/impl=pqgen-2   1  100 ns/op  1.5 allocs/row  200.0 cpu-MB/s  12.0 peak-MiB
BenchmarkPeers/type=flat/op=write/impl=arrowgo-2 1  100 ns/op  4 allocs/row  100.0 cpu-MB/s  20.0 peak-MiB
BenchmarkPeers/type=flat/op=write/impl=pqgen-par-2 1  40 ns/op  3 allocs/row  150.0 cpu-MB/s  16.0 peak-MiB
`

func TestKeyedNamesAndMetrics(t *testing.T) {
	s, err := Parse(strings.NewReader(keyed))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Peers("pqgen"); len(got) != 2 || got[0] != "arrowgo" || got[1] != "pqgen-par" {
		t.Fatalf("peers %v", got)
	}
	if x, _ := s.Ratio("BenchmarkPeers/type=flat/op=write", "pqgen", "arrowgo"); x != 2.5 {
		t.Fatalf("median ratio %v", x)
	}
	if v, _ := s.Metric("BenchmarkPeers/type=flat/op=write", "pqgen", "allocs/row"); v != 2 {
		t.Fatalf("median allocs/row %v", v)
	}
	s.Best = true
	if v, _ := s.Metric("BenchmarkPeers/type=flat/op=write", "pqgen", "peak-MiB"); v != 10 {
		t.Fatalf("best peak %v", v)
	}
	if v, _ := s.Metric("BenchmarkPeers/type=flat/op=write", "pqgen", "cpu-MB/s"); v != 300 {
		t.Fatalf("best rate %v", v)
	}
	var buf bytes.Buffer
	if err := s.WriteMetrics(&buf, "pqgen", "peak-MiB"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	// pqgen-par, a variant of pqgen: its peak over pqgen's, 16/10.
	for _, want := range []string{"Peers/flat/write", "peak-MiB", "10.00", "20.00", "0.50", "pqgen-par÷pqgen", "1.60"} {
		if !strings.Contains(out, want) {
			t.Fatalf("metrics table lacks %q:\n%s", want, out)
		}
	}
	buf.Reset()
	if err := s.WriteTable(&buf, "pqgen"); err != nil {
		t.Fatal(err)
	}
	// pqgen-par's speed-up in wall time, 100/40 ns (by CPU rate it would
	// be 150/300 = 0.5).
	if !strings.Contains(buf.String(), "Peers/flat/write") || !strings.Contains(buf.String(), "3.00x") ||
		!strings.Contains(buf.String(), "pqgen-par÷pqgen") || !strings.Contains(buf.String(), "2.50x") {
		t.Fatalf("ratio table:\n%s", buf.String())
	}
}
