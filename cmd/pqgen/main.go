// Command pqgen generates reflection-free Parquet readers and writers for
// Go types, and inspects Parquet files.
//
//	pqgen inspect [--json] [--footer-key K] [--column-key PATH:K]... [--aad-prefix P] FILE...
//	                                 print a file's schema, row groups, columns and statistics
//	pqgen -type T[,U...] [-o OUT.go] [DIR]              generate code for Go struct types
//	pqgen -schema FILE -package P [-type T] [-o OUT.go]  ... and a struct, from schema text
//	pqgen -from FILE.parquet -package P [-type T] [-o OUT.go]  ... from a file's schema
//	pqgen check -type T [-dir DIR] FILE...             how files read into a type (schema evolution)
//
// See the README for the generator's three sources (Go structs, schema
// text, an existing file).
package main

import (
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pqgen/pqgen/internal/inspect"
	"github.com/pqgen/pqgen/runtime"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage:
  pqgen inspect [--json] [--scan] [--strict] [--footer-key K] [--column-key PATH:K]... [--aad-prefix P] FILE...
                                   print a Parquet file's schema, row groups, columns and statistics,
                                   and a note for each deviation from the specification that other
                                   writers make and pqgen reads (docs/DEVIATIONS.md); --scan reads
                                   every page to find those of the data too, --strict refuses them;
                                   keys decrypt encrypted files (K: the key's bytes, or hex:HEX)
` + checkUsage + generateUsage

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
	case "check":
		return checkCmd(args[1:], stdout, stderr)
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
	scan := fs.Bool("scan", false, "read every page and Variant to find the deviations of the data too")
	var ropts []runtime.ReaderOption
	fs.BoolFunc("strict", "refuse the deviations from the specification that are otherwise read (docs/DEVIATIONS.md)", func(string) error {
		ropts = append(ropts, runtime.WithStrict(true))
		return nil
	})
	fs.Func("footer-key", "footer key of an encrypted file (its bytes, or hex:HEX)", func(v string) error {
		k, err := parseKey(v)
		ropts = append(ropts, runtime.WithFooterKey(k))
		return err
	})
	fs.Func("column-key", "key of an encrypted column, as PATH:KEY (repeatable; KEY as for --footer-key)", func(v string) error {
		path, key, ok := strings.Cut(v, ":")
		if !ok || path == "" {
			return errors.New("want PATH:KEY")
		}
		k, err := parseKey(key)
		ropts = append(ropts, runtime.WithColumnKey(path, k))
		return err
	})
	fs.Func("aad-prefix", "AAD prefix of an encrypted file that does not store it", func(v string) error {
		ropts = append(ropts, runtime.WithAADPrefix([]byte(v)))
		return nil
	})
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
		if err := inspect.Run(stdout, path, inspect.Options{JSON: *asJSON, Reader: ropts, Scan: *scan}); err != nil {
			msg := oneLine(err)
			switch {
			case errors.Is(err, runtime.ErrEncryptedFooter):
				msg += "; give it with --footer-key"
			case errors.Is(err, runtime.ErrNoKey):
				msg += " (flags: --footer-key, --column-key PATH:KEY, --aad-prefix)"
			}
			fmt.Fprintf(stderr, "pqgen: %s: %s\n", path, msg)
			code = 1
		}
	}
	return code
}

// parseKey reads an encryption key given on the command line: its bytes
// as typed, or hex digits after "hex:".
func parseKey(v string) ([]byte, error) {
	if h, ok := strings.CutPrefix(v, "hex:"); ok {
		return hex.DecodeString(h)
	}
	return []byte(v), nil
}

func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", " ")
}
