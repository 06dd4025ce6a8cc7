package gen

import (
	"fmt"
	"strconv"
	"strings"
)

// tag is a parsed `parquet:"name,opts..."` struct tag, in the syntax
// parquet-go users already write, extended where the format has more.
//
//	name                       column name ("" keeps the Go field name)
//	-                          skip the field
//	optional                   nullable column (pointers are always optional)
//	list                       a slice as a 3-level LIST (the default)
//	repeated                   a slice as a bare repeated field (extension)
//	dict, plain, delta, split  encoding: dictionary, PLAIN, DELTA_*, BYTE_STREAM_SPLIT
//	nodict                     no dictionary (extension)
//	snappy, gzip, zstd, brotli, lz4, lz4raw, uncompressed   compression
//	timestamp(unit)            INT64 TIMESTAMP (millisecond|microsecond|nanosecond; UTC);
//	                           timestamp(unit,local) for local time (extension)
//	date                       INT32 DATE
//	time(unit)                 TIME (a time.Duration since midnight); time(unit,local)
//	                           when not adjusted to UTC
//	uuid, enum, json, bson     the logical types of those names
//	decimal(scale,precision)   DECIMAL
//	float16, interval          FLOAT16 (float32 or raw [2]byte), INTERVAL ([12]byte) (extension)
//	geometry, geography        GEOMETRY, GEOGRAPHY ([]byte WKB) (extension)
//	variant                    VARIANT group (extension)
//	id(N)                      field id
//	bloom, bloom(ndv)          bloom filter sized for ndv distinct values (default 100000) (extension)
//	default(v)                 the value a required top-level scalar reads as from files
//	                           that lack its column (schema evolution; extension)
type tag struct {
	name      string
	nameSet   bool
	skip      bool
	optional  bool
	list      bool
	repeated  bool
	logical   string // timestamp, date, time, uuid, enum, json, bson, decimal, float16, interval, geometry, geography, variant
	unit      string // millis, micros, nanos
	local     bool
	scale     int32
	precision int32
	id        int32
	idSet     bool
	def       string // default(...) argument
	defSet    bool
	col       ColumnOptions
}

// splitOpts splits at commas outside parentheses.
func splitOpts(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func parseUnit(s string) (string, error) {
	switch strings.TrimSpace(s) {
	case "millisecond", "millis", "ms":
		return "millis", nil
	case "microsecond", "micros", "us":
		return "micros", nil
	case "nanosecond", "nanos", "ns":
		return "nanos", nil
	}
	return "", fmt.Errorf("unknown time unit %q (want millisecond, microsecond or nanosecond)", s)
}

// noArgs are the options that take no arguments.
var noArgs = map[string]bool{
	"optional": true, "list": true, "repeated": true, "dict": true, "nodict": true,
	"plain": true, "delta": true, "split": true, "alp": true, "snappy": true, "gzip": true, "zstd": true,
	"brotli": true, "lz4": true, "lz4raw": true, "uncompressed": true, "date": true,
	"uuid": true, "enum": true, "json": true, "bson": true, "float16": true, "interval": true,
	"geometry": true, "geography": true, "variant": true, "file": true,
}

// parseTag parses the value of the parquet key of a struct tag strictly:
// unknown options, arguments on options that take none, an option given
// twice and conflicting choices (two encodings, two codecs, dict with
// nodict, two logical types) are errors.
func parseTag(s string) (tag, error) {
	var t tag
	if s == "-" {
		t.skip = true
		return t, nil
	}
	parts := splitOpts(s)
	t.name = parts[0]
	t.nameSet = parts[0] != ""
	seen := map[string]bool{}
	// set records a choice among exclusive options (an encoding, a codec,
	// dictionary on or off): a second, different choice is an error.
	set := func(what string, dst *string, v string) error {
		if *dst != "" && *dst != v {
			return fmt.Errorf("conflicting %s options %s and %s", what, *dst, v)
		}
		*dst = v
		return nil
	}
	setLogical := func(l string) error {
		if t.logical != "" {
			return fmt.Errorf("both %s and %s", t.logical, l)
		}
		t.logical = l
		return nil
	}
	for _, p := range parts[1:] {
		p = strings.TrimSpace(p)
		name, args, hasArgs := p, "", false
		if i := strings.IndexByte(p, '('); i >= 0 {
			if !strings.HasSuffix(p, ")") {
				return t, fmt.Errorf("option %q: missing )", p)
			}
			name, args, hasArgs = p[:i], p[i+1:len(p)-1], true
		}
		if name == "" {
			continue
		}
		if seen[name] {
			return t, fmt.Errorf("option %s given twice", name)
		}
		seen[name] = true
		if hasArgs && noArgs[name] {
			return t, fmt.Errorf("option %s takes no arguments", name)
		}
		var err error
		switch name {
		case "optional":
			t.optional = true
		case "list":
			t.list = true
		case "repeated":
			t.repeated = true
		case "dict":
			err = set("dictionary", &t.col.Dict, "on")
		case "nodict":
			err = set("dictionary", &t.col.Dict, "off")
		case "plain", "delta", "split", "alp":
			err = set("encoding", &t.col.Encoding, name)
		case "snappy", "gzip", "zstd", "brotli", "lz4", "lz4raw", "uncompressed":
			err = set("compression", &t.col.Compression, name)
		case "bloom", "bloomfilter":
			t.col.BloomNDV = 100000
			if hasArgs {
				ndv, err1 := strconv.ParseUint(strings.TrimSpace(args), 10, 64)
				if err1 != nil || ndv == 0 {
					return t, fmt.Errorf("option bloom(%s): want a positive number of distinct values", args)
				}
				t.col.BloomNDV = ndv
			}
		case "timestamp", "time":
			err = setLogical(name)
			t.unit = "nanos"
			if name == "time" {
				t.unit = "nanos"
			}
			if hasArgs {
				as := strings.Split(args, ",")
				if t.unit, err = parseUnit(as[0]); err != nil {
					break
				}
				for _, a := range as[1:] {
					switch strings.TrimSpace(a) {
					case "local":
						t.local = true
					case "utc":
					default:
						err = fmt.Errorf("option %s: unknown argument %q", name, a)
					}
				}
			}
		case "decimal":
			err = setLogical(name)
			as := strings.Split(args, ",")
			if !hasArgs || len(as) != 2 {
				return t, fmt.Errorf("option decimal needs (scale,precision)")
			}
			sc, err1 := strconv.ParseInt(strings.TrimSpace(as[0]), 10, 32)
			pr, err2 := strconv.ParseInt(strings.TrimSpace(as[1]), 10, 32)
			if err1 != nil || err2 != nil || pr <= 0 || sc < 0 || sc > pr {
				return t, fmt.Errorf("option decimal(%s): want 0 <= scale <= precision, precision > 0", args)
			}
			t.scale, t.precision = int32(sc), int32(pr)
		case "date", "uuid", "enum", "json", "bson", "float16", "interval", "geometry", "geography", "variant", "file":
			err = setLogical(name)
		case "default":
			if !hasArgs {
				return t, fmt.Errorf("option default needs (value)")
			}
			t.def, t.defSet = args, true
		case "id":
			n, err1 := strconv.ParseInt(strings.TrimSpace(args), 10, 32)
			if !hasArgs || err1 != nil {
				return t, fmt.Errorf("option id(%s): want an int32", args)
			}
			t.id, t.idSet = int32(n), true
		default:
			return t, fmt.Errorf("unknown option %q", p)
		}
		if err != nil {
			return t, fmt.Errorf("option %q: %w", p, err)
		}
	}
	if t.list && t.repeated {
		return t, fmt.Errorf("options list and repeated exclude each other")
	}
	return t, nil
}
