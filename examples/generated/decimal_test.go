package generated

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime"
)

func dec(t *testing.T, s string) runtime.Decimal {
	t.Helper()
	d, err := runtime.ParseDecimal(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// bigEndian returns the value of big-endian two's complement bytes.
func bigEndian(b []byte) *big.Int {
	v := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return v
}

// TestPriceDecimal writes runtime.Decimal values, reads them back at the
// columns' scales, and reads the same file with the scaled-integer
// mapping (PriceScaled): the unscaled values must be the decimals at the
// columns' scales.
func TestPriceDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var rows []Price
	for i := range 300 {
		// A random value below 10^38 (from 128 random bits).
		big38 := new(big.Int).Lsh(new(big.Int).SetUint64(r.Uint64()), 64)
		big38.Or(big38, new(big.Int).SetUint64(r.Uint64()))
		big38.Mod(big38, new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil))
		if i%2 == 1 {
			big38.Neg(big38)
		}
		bd, err := runtime.NewDecimalBig(big38, 6)
		if err != nil {
			t.Fatal(err)
		}
		p := Price{
			Amount: runtime.NewDecimal(r.Int64N(2e9)-1e9+1, 2),
			Total:  runtime.NewDecimal(r.Int64N(1e6), 1), // rescaled to 4 on write
			Big:    bd,
			Lines:  []runtime.Decimal{runtime.NewDecimal(int64(i), 0), dec(t, "-0.5")},
			ByCode: map[string]runtime.Decimal{"a": runtime.NewDecimal(int64(i), 2)},
		}
		if i%3 == 0 {
			p.Opt = ptr(dec(t, strconv.Itoa(i)+".125"))
			p.Zero = runtime.NewDecimal(int64(i)+1, 1)
		}
		rows = append(rows, p)
	}
	path := filepath.Join(t.TempDir(), "price.parquet")
	if err := WritePriceFile(path, rows); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPriceFile(path)
	if err != nil {
		t.Fatal(err)
	}
	scaled, err := ReadPriceScaledFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(rows) || len(scaled) != len(rows) {
		t.Fatalf("%d and %d rows read, want %d", len(back), len(scaled), len(rows))
	}
	eq := cmp.Comparer(func(a, b runtime.Decimal) bool { return runtime.CompareDecimal(a, b) == 0 })
	for i, w := range rows {
		g, s := back[i], scaled[i]
		if d := cmp.Diff(w, g, eq); d != "" {
			t.Fatalf("row %d (-written +read):\n%s", i, d)
		}
		// Read at the columns' scales.
		if g.Total.Scale() != 4 || g.Big.Scale() != 6 || g.Lines[1].Scale() != 2 {
			t.Fatalf("row %d: scales %d %d %d", i, g.Total.Scale(), g.Big.Scale(), g.Lines[1].Scale())
		}
		// The scaled mapping reads the same unscaled values.
		at := func(d runtime.Decimal, scale int32) *big.Int {
			r, err := d.Rescale(scale)
			if err != nil {
				t.Fatal(err)
			}
			return r.Unscaled()
		}
		checks := []struct {
			name      string
			got, want *big.Int
		}{
			{"amount", big.NewInt(int64(s.Amount)), at(w.Amount, 2)},
			{"total", big.NewInt(s.Total), at(w.Total, 4)},
			{"big", bigEndian(s.Big[:]), at(w.Big, 6)},
			{"lines", big.NewInt(s.Lines[1]), big.NewInt(-50)},
			{"by_code", big.NewInt(int64(s.ByCode["a"])), big.NewInt(int64(i))},
		}
		if w.Opt != nil {
			checks = append(checks, struct {
				name      string
				got, want *big.Int
			}{"opt", bigEndian(s.Opt[:]), at(*w.Opt, 3)})
		} else if s.Opt != nil || s.Zero != 0 || g.Zero != (runtime.Decimal{}) {
			t.Fatalf("row %d: nulls read as %v, %d, %v", i, s.Opt, s.Zero, g.Zero)
		}
		for _, c := range checks {
			if c.got.Cmp(c.want) != 0 {
				t.Fatalf("row %d: %s unscaled %s, want %s", i, c.name, c.got, c.want)
			}
		}
	}
}

// TestPriceDecimalErrors: a value that loses digits at the column's scale
// or has more digits than its precision fails the write with ErrValue,
// naming the column and the row.
func TestPriceDecimalErrors(t *testing.T) {
	for _, c := range []struct {
		p    Price
		want string
	}{
		{Price{Amount: dec(t, "1.234")}, `column "amount": row 1: `},
		{Price{Amount: dec(t, "10000000.00")}, `column "amount": row 1: `},
		{Price{Lines: []runtime.Decimal{dec(t, "0.001")}}, `column "lines.list.element": row 1: `},
		{Price{Big: dec(t, "100000000000000000000000000000000")}, `column "big": row 1: `},
	} {
		err := WritePriceFile(filepath.Join(t.TempDir(), "p.parquet"), []Price{{}, c.p})
		if !errors.Is(err, runtime.ErrValue) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want ErrValue starting %q", c.p, err, c.want)
		}
	}
}

// decimalValues returns the Value fields of rows read from a file.
func decimalValues[T any](rows []T, err error, value func(T) *runtime.Decimal) ([]*runtime.Decimal, error) {
	out := make([]*runtime.Decimal, len(rows))
	for i, r := range rows {
		out[i] = value(r)
	}
	return out, err
}

// TestDecimalCorpus reads the corpus's DECIMAL files (INT32, INT64,
// FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY columns; the last two through the
// reader's physical type adaptation where the Go type's column differs)
// as runtime.Decimal: row i holds i+1 with scale 2.
func TestDecimalCorpus(t *testing.T) {
	read := func(rel string) ([]*runtime.Decimal, error) {
		path := corpus.Path(t, rel)
		switch rel {
		case "data/int64_decimal.parquet":
			rows, err := ReadDecimalColumn10File(path)
			return decimalValues(rows, err, func(r DecimalColumn10) *runtime.Decimal { return r.Value })
		case "data/fixed_length_decimal_legacy.parquet":
			rows, err := ReadDecimalColumn13File(path)
			return decimalValues(rows, err, func(r DecimalColumn13) *runtime.Decimal { return r.Value })
		case "data/fixed_length_decimal.parquet":
			rows, err := ReadDecimalColumn25File(path)
			return decimalValues(rows, err, func(r DecimalColumn25) *runtime.Decimal { return r.Value })
		}
		rows, err := ReadDecimalColumnFile(path)
		return decimalValues(rows, err, func(r DecimalColumn) *runtime.Decimal { return r.Value })
	}
	for _, rel := range []string{"data/int32_decimal.parquet", "data/byte_array_decimal.parquet", "data/int64_decimal.parquet",
		"data/fixed_length_decimal_legacy.parquet", "data/fixed_length_decimal.parquet"} {
		ds, err := read(rel)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if len(ds) != 24 {
			t.Fatalf("%s: %d rows, want 24", rel, len(ds))
		}
		for i, d := range ds {
			if want := strconv.Itoa(i+1) + ".00"; d == nil || d.String() != want {
				t.Fatalf("%s row %d: %v, want %s", rel, i, d, want)
			}
		}
	}
}

// TestPriceWhereDecimal: predicates on Decimal fields compare at the
// column's scale, and a value the column cannot hold (too many digits for
// its precision, or digits past its scale) fails the reader's open with
// ErrConfig (WithFilter) instead of comparing something else.
func TestPriceWhereDecimal(t *testing.T) {
	var rows []Price
	for i := range 50 {
		rows = append(rows, Price{Amount: runtime.NewDecimal(int64(i*25), 2), Total: runtime.NewDecimal(int64(i), 0), Big: runtime.NewDecimal(int64(i), 0)})
	}
	path := filepath.Join(t.TempDir(), "price.parquet")
	if err := WritePriceFile(path, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadPriceFile(path, runtime.WithFilter(PriceWhere.Amount.Between(dec(t, "1"), dec(t, "2.5"))))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 7 || got[0].Amount.String() != "1.00" || got[6].Amount.String() != "2.50" {
		t.Fatalf("Between(1, 2.5): %d rows %v", len(got), got)
	}
	for _, bad := range []string{"12345678901", "0.001"} {
		_, err := ReadPriceFile(path, runtime.WithFilter(PriceWhere.Amount.Eq(dec(t, bad))))
		if !errors.Is(err, runtime.ErrConfig) || !errors.Is(err, runtime.ErrValue) || !strings.Contains(err.Error(), `column "amount": `) {
			t.Errorf("Eq(%s) on decimal(2,9): %v, want ErrConfig and ErrValue naming the column", bad, err)
		}
	}
}
