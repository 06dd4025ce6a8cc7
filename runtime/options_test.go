package runtime

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/crypt"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestReaderOptionsValidate: every reader option rejects what it cannot
// use the same way writer options do, with an error wrapping ErrConfig
// that names the option, before anything is read.
func TestReaderOptionsValidate(t *testing.T) {
	keep := func(*File, int, *meta.ColumnIndex, int) bool { return true }
	cases := []struct {
		name string
		opt  ReaderOption
	}{
		{"WithMaxFooterSize", WithMaxFooterSize(0)},
		{"WithMaxFooterSize", WithMaxFooterSize(-1)},
		{"WithMetaLimits", WithMetaLimits(meta.Limits{})},
		{"WithMaxPageSize", WithMaxPageSize(0)},
		{"WithMaxPageHeaderSize", WithMaxPageHeaderSize(-5)},
		{"WithMaxPageValues", WithMaxPageValues(0)},
		{"WithColumns", WithColumns("a", "")},
		{"WithRowGroupFilter", WithRowGroupFilter(nil)},
		{"WithColumnPageFilter", WithColumnPageFilter("", keep)},
		{"WithColumnPageFilter", WithColumnPageFilter("a", nil)},
		{"WithFooterKey", WithFooterKey(make([]byte, 5))},
		{"WithColumnKey", WithColumnKey("a", make([]byte, 17))},
		{"WithColumnKey", WithColumnKey("", make([]byte, 16))},
	}
	for _, c := range cases {
		// The reader is empty: the option must fail before it is read.
		_, err := OpenFile(bytes.NewReader(nil), 0, c.opt)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s: %v, want ErrConfig naming the option", c.name, err)
		}
		if _, err := NewFileReader(bytes.NewReader(nil), 0, c.opt); !errors.Is(err, ErrConfig) {
			t.Errorf("NewFileReader %s: %v, want ErrConfig", c.name, err)
		}
	}
	if _, err := OpenFile(bytes.NewReader(nil), 0, WithFooterKey(make([]byte, 7))); !errors.Is(err, crypt.ErrKey) {
		t.Errorf("a short footer key: %v, want crypt.ErrKey too", err)
	}
	// Valid values pass validation (the empty file then fails as such).
	if _, err := OpenFile(bytes.NewReader(nil), 0, WithMaxFooterSize(1), WithMaxPageSize(1), WithMetaLimits(meta.DefaultLimits)); !errors.Is(err, ErrNotParquet) {
		t.Errorf("valid options: %v, want ErrNotParquet", err)
	}
}
