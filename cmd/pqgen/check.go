package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/pqgen/pqgen/gen"
	"github.com/pqgen/pqgen/runtime"
)

const checkUsage = `  pqgen check -type T [-dir DIR] [--optional-as-required] [--coarser-time-units] FILE...
      without reading data, tell per column how each file reads into struct type T
      of the Go package in DIR (default .): match, converted, skipped (a column T
      lacks), missing (null, zero or default) or incompatible; exit status 1 when
      a file cannot be read into T
`

// checkCmd runs pqgen check. args are the arguments after "check".
func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	typeName := fs.String("type", "", "the struct type")
	dir := fs.String("dir", ".", "the directory of the type's Go package")
	optReq := fs.Bool("optional-as-required", false, "read optional columns into required fields (runtime.WithOptionalAsRequired)")
	coarser := fs.Bool("coarser-time-units", false, "read times into coarser units (runtime.WithCoarserTimeUnits)")
	fs.Usage = func() { fmt.Fprint(stderr, "usage:\n"+checkUsage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *typeName == "" || fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	p, err := gen.LoadGo(*dir, []string{*typeName})
	if err != nil {
		fmt.Fprintf(stderr, "pqgen: %v\n", err)
		return 1
	}
	t := p.Types[0]
	var defaults, variants []string
	for _, fl := range t.Root.Struct.Fields {
		if fl.Default != nil {
			defaults = append(defaults, fl.Value.Node.PathString())
		}
		if fl.Value.Kind == gen.KindVariant {
			variants = append(variants, fl.Value.Node.PathString())
		}
	}
	opts := []runtime.ReaderOption{runtime.WithOptionalAsRequired(*optReq), runtime.WithCoarserTimeUnits(*coarser)}
	code := 0
	for _, name := range fs.Args() {
		pf, fh, err := runtime.OpenPath(name)
		if err != nil {
			fmt.Fprintf(stderr, "pqgen: %s: %v\n", name, err)
			code = 1
			continue
		}
		fh.Close() // only the footer is needed
		checks := runtime.CheckSchema(pf.Schema, t.Schema, defaults, variants, opts...)
		ok := true
		for _, c := range checks {
			ok = ok && c.Status != runtime.ColumnIncompatible
		}
		verdict := "reads into " + t.Name
		if !ok {
			verdict = "does not read into " + t.Name
			code = 1
		}
		fmt.Fprintf(stdout, "%s: %s\n", name, verdict)
		tw := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', 0)
		for _, c := range checks {
			line := fmt.Sprintf("  %s\t%s\t%s\t%s", c.Status, c.Path, orDash(c.File), orDash(c.Type))
			if c.FilePath != "" && c.FilePath != c.Path {
				line += "\t(file column " + c.FilePath + ")"
			}
			if c.Err != nil {
				line += "\t" + c.Err.Error()
			}
			if c.Note != "" {
				line += "\t" + c.Note
			}
			fmt.Fprintln(tw, line)
		}
		tw.Flush()
	}
	return code
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
