// Command pqgen generates reflection-free Parquet readers and writers for
// Go types, and inspects Parquet files.
//
//	pqgen inspect [--json] FILE...   print a file's schema, row groups, columns and statistics
//	pqgen -type T[,U...] [-o OUT.go] [DIR]              generate code for Go struct types
//	pqgen -schema FILE -package P [-type T] [-o OUT.go]  ... and a struct, from schema text
//	pqgen -from FILE.parquet -package P [-type T] [-o OUT.go]  ... from a file's schema
//
// See the README for the generator's three sources (Go structs, schema
// text, an existing file).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pqgen/pqgen/internal/inspect"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage:
  pqgen inspect [--json] FILE...   print a Parquet file's schema, row groups, columns and statistics
` + generateUsage

// run is main without the process: it returns the exit code.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		// A bug must still end in one clear line, never a stack trace.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "pqgen: internal error: %v (please report it)\n", r)
			code = 3
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "inspect":
		return inspectCmd(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	if strings.HasPrefix(args[0], "-") {
		return generateCmd(args, stdout, stderr)
	}
	fmt.Fprintf(stderr, "pqgen: unknown command %q\n%s", args[0], usage)
	return 2
}

func inspectCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	code := 0
	for _, path := range fs.Args() {
		if err := inspect.Run(stdout, path, inspect.Options{JSON: *asJSON}); err != nil {
			fmt.Fprintf(stderr, "pqgen: %s: %s\n", path, oneLine(err))
			code = 1
		}
	}
	return code
}

func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", " ")
}
