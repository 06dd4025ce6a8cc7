package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pqgen/pqgen/gen"
	"github.com/pqgen/pqgen/runtime"
)

const generateUsage = `  pqgen -type T[,U...] [-o OUT.go] [DIR]
      generate readers and writers for struct types of the Go package in DIR
      (default .); writes t_parquet.go per type in DIR unless -o names one file
  pqgen -schema FILE -package P [-type T] [-o OUT.go] [-initialisms=false] [-decimal=type]
      generate a struct type and its reader and writer from Parquet schema text
  pqgen -from FILE.parquet -package P [-type T] [-o OUT.go] [--footer-key K] [--aad-prefix P] [...]
      the same from the schema of an existing Parquet file (an encrypted
      footer needs its key: its bytes, or hex:HEX)
      -initialisms=false  plain CamelCase names (OrderId, Url) instead of Go's (OrderID, URL)
      -decimal=type       DECIMAL columns as runtime.Decimal instead of scaled integers
                          (INT32, INT64 and FIXED_LEN_BYTE_ARRAY up to 16 bytes)
`

// generateCmd runs the generator modes. args are the command-line
// arguments after the program name.
func generateCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pqgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	typeNames := fs.String("type", "", "comma-separated struct type names")
	schemaFile := fs.String("schema", "", "Parquet schema text file")
	fromFile := fs.String("from", "", "Parquet file whose schema to use")
	pkg := fs.String("package", os.Getenv("GOPACKAGE"), "package of the generated file (schema and file sources; default $GOPACKAGE)")
	out := fs.String("o", "", "output file")
	initialisms := fs.Bool("initialisms", true, "with -schema and -from: Go initialisms in names (OrderID, URL); false keeps plain CamelCase (OrderId, Url)")
	decimal := fs.String("decimal", "scaled", "with -schema and -from: DECIMAL columns as scaled integers (scaled) or runtime.Decimal (type)")
	var ropts []runtime.ReaderOption
	fs.Func("footer-key", "with -from: footer key of an encrypted file (its bytes, or hex:HEX)", func(v string) error {
		k, err := parseKey(v)
		ropts = append(ropts, runtime.WithFooterKey(k))
		return err
	})
	fs.Func("aad-prefix", "with -from: AAD prefix of an encrypted file that does not store it", func(v string) error {
		ropts = append(ropts, runtime.WithAADPrefix([]byte(v)))
		return nil
	})
	fs.Usage = func() { fmt.Fprint(stderr, "usage:\n"+generateUsage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(ropts) > 0 && *fromFile == "" {
		fmt.Fprintln(stderr, "pqgen: --footer-key and --aad-prefix go with -from")
		return 2
	}
	gopts := gen.Options{PlainNames: !*initialisms}
	switch *decimal {
	case "scaled":
	case "type":
		gopts.Decimal = gen.DecimalType
	default:
		fmt.Fprintf(stderr, "pqgen: -decimal %q: want scaled or type\n", *decimal)
		return 2
	}
	if *schemaFile != "" && *fromFile != "" {
		fmt.Fprintln(stderr, "pqgen: -schema and -from exclude each other")
		return 2
	}
	var p *gen.Package
	var err error
	dir := "."
	switch {
	case *schemaFile != "" || *fromFile != "":
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "pqgen: unexpected arguments %q\n", fs.Args())
			return 2
		}
		if *pkg == "" {
			fmt.Fprintln(stderr, "pqgen: -package is required with -schema and -from (or run under go generate)")
			return 2
		}
		if strings.Contains(*typeNames, ",") {
			fmt.Fprintln(stderr, "pqgen: -schema and -from generate one type")
			return 2
		}
		if *schemaFile != "" {
			text, rerr := os.ReadFile(*schemaFile)
			if rerr != nil {
				fmt.Fprintf(stderr, "pqgen: %v\n", rerr)
				return 1
			}
			p, err = gen.FromSchemaTextWith(*schemaFile, string(text), *pkg, *typeNames, gopts)
		} else {
			p, err = gen.FromFileWith(*fromFile, *pkg, *typeNames, gopts, ropts...)
			if errors.Is(err, runtime.ErrEncryptedFooter) {
				err = fmt.Errorf("%w; give it with --footer-key", err)
			}
		}
	case *typeNames != "":
		if fs.NArg() > 1 {
			fmt.Fprintf(stderr, "pqgen: one package directory at most, got %q\n", fs.Args())
			return 2
		}
		if fs.NArg() == 1 {
			dir = fs.Arg(0)
		}
		if onlyFileFlags(fs) {
			fmt.Fprintln(stderr, "pqgen: -initialisms and -decimal go with -schema and -from (Go types keep their own names and types)")
			return 2
		}
		p, err = gen.LoadGo(dir, strings.Split(*typeNames, ","))
	default:
		fs.Usage()
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "pqgen: %s\n", oneLine(err))
		return 1
	}
	outDir := dir
	if *out != "" {
		outDir = filepath.Dir(*out)
	}
	p.Args = headerArgs(fs, outDir)
	single := ""
	if *out != "" {
		single = filepath.Base(*out)
	}
	files, err := gen.Generate(p, single)
	if err != nil {
		fmt.Fprintf(stderr, "pqgen: %s\n", oneLine(err))
		return 1
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if *out != "" {
			path = *out
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			fmt.Fprintf(stderr, "pqgen: %v\n", err)
			return 1
		}
	}
	return 0
}

// onlyFileFlags reports whether a flag of the schema-text and file sources
// only was given.
func onlyFileFlags(fs *flag.FlagSet) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == "initialisms" || f.Name == "decimal" })
	return found
}

// headerArgs returns the arguments recorded in the generated files' first
// line: the flags given (in a fixed order), with every path relative to
// outDir, the directory of the output, so that the line reads the same
// wherever the command ran and leaks no absolute path; and no secret: the
// key and AAD prefix flags are left out.
func headerArgs(fs *flag.FlagSet, outDir string) string {
	set := map[string]string{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = f.Value.String() })
	var args []string
	for _, name := range []string{"schema", "from", "package", "type", "o", "initialisms", "decimal"} {
		v, ok := set[name]
		if !ok {
			continue
		}
		switch name {
		case "schema", "from", "o":
			v = relativePath(v, outDir)
		case "initialisms":
			// A boolean flag takes its value after "=".
			args = append(args, "-"+name+"="+v)
			continue
		}
		args = append(args, "-"+name, v)
	}
	if fs.NArg() == 1 {
		if d := relativePath(fs.Arg(0), outDir); d != "." {
			args = append(args, d)
		}
	}
	return strings.Join(args, " ")
}

// relativePath returns path relative to dir, with forward slashes, or its
// base name when it has no relative form (another volume).
func relativePath(path, dir string) string {
	ap, err1 := filepath.Abs(path)
	ad, err2 := filepath.Abs(dir)
	if err1 == nil && err2 == nil {
		if r, err := filepath.Rel(ad, ap); err == nil {
			return filepath.ToSlash(r)
		}
	}
	return filepath.Base(path)
}
