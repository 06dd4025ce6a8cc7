// Command benchratio reads `go test -bench` output on stdin and prints, for
// each operation, how many times faster the reference implementation
// (default pqgen) is than each peer (ratios above 1: the reference is
// faster).
//
//	go test -run '^$' -bench . ./encode | go run ./internal/benchratio/cmd/benchratio
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/pqgen/pqgen/peers/internal/benchratio"
)

func main() {
	ref := flag.String("ref", "pqgen", "reference implementation (last element of the benchmark names)")
	best := flag.Bool("best", false, "use each benchmark's best run instead of the median of -count runs")
	metrics := flag.String("metrics", "", "comma-separated units (for example rows/s,allocs/row,peak-MiB) to print side by side per implementation after the ratio table")
	flag.Parse()
	s, err := benchratio.Parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(1)
	}
	s.Best = *best
	if err := s.WriteTable(os.Stdout, *ref); err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(1)
	}
	if *metrics != "" {
		fmt.Println()
		if err := s.WriteMetrics(os.Stdout, *ref, strings.Split(*metrics, ",")...); err != nil {
			fmt.Fprintln(os.Stderr, "benchratio:", err)
			os.Exit(1)
		}
	}
}
