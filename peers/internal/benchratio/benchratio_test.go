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
