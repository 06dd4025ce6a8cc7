package gen

import (
	"strings"
	"testing"
)

// TestParseTagStrict: every malformed or contradictory tag is an error
// that says what is wrong; well-formed tags parse.
func TestParseTagStrict(t *testing.T) {
	for _, c := range []struct{ tag, want string }{
		{"a,delta,plain", "conflicting encoding options delta and plain"},
		{"a,dict,nodict", "conflicting dictionary options on and off"},
		{"a,zstd,snappy", "conflicting compression options zstd and snappy"},
		{"a,optional(1)", "option optional takes no arguments"},
		{"a,delta(2)", "option delta takes no arguments"},
		{"a,uuid()", "option uuid takes no arguments"},
		{"a,zstd(3)", "option zstd takes no arguments"},
		{"a,date,json", "both date and json"},
		{"a,optional,optional", "option optional given twice"},
		{"a,frob", `unknown option "frob"`},
		{"a,id", "option id(): want an int32"},
		{"a,id(x)", "option id(x): want an int32"},
		{"a,decimal(3)", "option decimal needs (scale,precision)"},
		{"a,timestamp(hours)", "unknown time unit"},
		{"a,timestamp(ms,frob)", `unknown argument "frob"`},
		{"a,bloom(0)", "want a positive number of distinct values"},
		{"a,list,repeated", "options list and repeated exclude each other"},
		{"a,date(", "missing )"},
	} {
		_, err := parseTag(c.tag)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error containing %q", c.tag, err, c.want)
		}
	}
	for _, ok := range []string{"", "-", "a", ",optional", "a,delta", "a,dict,zstd,bloom(10),id(3)", "a,timestamp(ms,local)", "a,decimal(2,9)", "a, optional , plain"} {
		if _, err := parseTag(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}
