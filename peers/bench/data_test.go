package bench

import (
	"reflect"
	"strconv"
	"time"
	"unsafe"
)

// mix is a deterministic 64-bit hash of a row number and a column number,
// so that every library gets the same rows and the data needs no RNG state.
func mix(i, col uint64) uint64 {
	x := i*0x9e3779b97f4a7c15 + col*0xbf58476d1ce4e5b9 + 1
	x ^= x >> 31
	x *= 0x94d049bb133111eb
	x ^= x >> 29
	return x
}

// lowCard holds 100 distinct strings; names 1,000; cities 50.
var (
	lowCard = strTable("v", 100)
	names   = strTable("name-", 1000)
	cities  = strTable("city-", 50)
	keys    = strTable("key-", 12)
)

func strTable(prefix string, n int) []string {
	t := make([]string, n)
	for i := range t {
		t[i] = prefix + strconv.Itoa(i*7919%100003)
	}
	return t
}

// cloneString copies s, so that rows read through arrow own their strings
// (arrow's String.Value aliases the array's buffer).
func cloneString(s string) string {
	if s == "" {
		return ""
	}
	return string([]byte(s))
}

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// flatRows returns n Flat rows: ids ascending, names of 1,000 values, Opt
// null for half of the rows (at random), times ascending in microseconds.
func flatRows(n int) []Flat {
	rows := make([]Flat, n)
	opts := make([]int32, n)
	for i := range rows {
		h := mix(uint64(i), 1)
		r := &rows[i]
		r.ID = int64(i)
		r.Name = names[h%1000]
		r.Value = float64(h>>20%1_000_000) / 100
		if h>>40&1 == 1 {
			opts[i] = int32(h >> 44 % 100_000)
			r.Opt = &opts[i]
		}
		r.Count = int32(h >> 10 % 1000)
		r.At = epoch.Add(time.Duration(i)*1237*time.Microsecond + time.Duration(h%1000)*time.Microsecond)
	}
	return rows
}

// flatBytes is the logical size of a Flat row: its fixed-width values and
// string bytes, the rate unit of the benchmarks (the same for every library).
func flatBytes(rows []Flat) int64 {
	n := int64(0)
	for i := range rows {
		n += 8 + int64(len(rows[i].Name)) + 8 + 4 + 8
		if rows[i].Opt != nil {
			n += 4
		}
	}
	return n
}

// flatMemBytes is the size of Flat rows in memory: the structs, the bytes
// of their names and the int32 each non-nil Opt points to.
func flatMemBytes(rows []Flat) int64 {
	n := int64(len(rows)) * int64(unsafe.Sizeof(Flat{}))
	for i := range rows {
		n += int64(len(rows[i].Name))
		if rows[i].Opt != nil {
			n += 4
		}
	}
	return n
}

// contactRows returns n Contact rows: an address for three rows in four,
// zero to three emails, zero to two phones and zero to three attributes.
func contactRows(n int) []Contact {
	rows := make([]Contact, n)
	for i := range rows {
		h := mix(uint64(i), 2)
		r := &rows[i]
		r.ID = int64(i)
		r.Name = "contact " + strconv.Itoa(i)
		if h%4 != 0 {
			r.Address = &Address{
				Street: strconv.Itoa(int(h>>8%999)) + " Main Street",
				City:   cities[h>>20%50],
				Zip:    int32(h >> 24 % 100_000),
			}
		}
		for k := range int(h >> 32 % 4) {
			r.Emails = append(r.Emails, "user"+strconv.Itoa(i)+"."+strconv.Itoa(k)+"@example.com")
		}
		for k := range int(h >> 36 % 3) {
			kind := "home"
			if k == 1 {
				kind = "work"
			}
			r.Phones = append(r.Phones, Phone{Kind: kind, Number: "+1-555-" + strconv.Itoa(int(h>>40%10_000_000)+k)})
		}
		if m := int(h >> 44 % 4); m > 0 {
			r.Attrs = make(map[string]int64, m)
			for k := range m {
				r.Attrs[keys[(int(h>>50)+k)%len(keys)]] = int64(h>>(k+3)) % 1_000_000
			}
		}
	}
	return rows
}

// contactBytes is the logical size of Contact rows.
func contactBytes(rows []Contact) int64 {
	n := int64(0)
	for i := range rows {
		r := &rows[i]
		n += 8 + int64(len(r.Name))
		if a := r.Address; a != nil {
			n += int64(len(a.Street)+len(a.City)) + 4
		}
		for _, e := range r.Emails {
			n += int64(len(e))
		}
		for _, p := range r.Phones {
			n += int64(len(p.Kind) + len(p.Number))
		}
		for k := range r.Attrs {
			n += int64(len(k)) + 8
		}
	}
	return n
}

// wideRows returns n Wide rows.
func wideRows(n int) []Wide {
	rows := make([]Wide, n)
	for i := range rows {
		fillWide(i, &rows[i])
	}
	return rows
}

// wideBytes is the logical size of Wide rows.
func wideBytes(rows []Wide) int64 {
	n := int64(0)
	for i := range rows {
		v := reflect.ValueOf(&rows[i]).Elem()
		for k := range v.NumField() {
			f := v.Field(k)
			switch f.Kind() {
			case reflect.String:
				n += int64(f.Len())
			case reflect.Pointer:
				if !f.IsNil() {
					n += 8
				}
			case reflect.Bool:
				n++
			default:
				n += int64(f.Type().Size())
			}
		}
	}
	return n
}

// normFlat, normContact put rows read back into the form they were written
// in: times in UTC, empty lists and maps nil (libraries differ there).
func normFlat(rows []Flat) {
	for i := range rows {
		rows[i].At = rows[i].At.UTC()
	}
}

func normContact(rows []Contact) {
	for i := range rows {
		r := &rows[i]
		if len(r.Emails) == 0 {
			r.Emails = nil
		}
		if len(r.Phones) == 0 {
			r.Phones = nil
		}
		if len(r.Attrs) == 0 {
			r.Attrs = nil
		}
	}
}

func normWide([]Wide) {}
