package generated

import (
	"bytes"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pqgen/pqgen/runtime"
)

// rangeServer serves data over HTTP range requests, counting requests and
// body bytes.
type rangeServer struct {
	*httptest.Server
	requests, bytes atomic.Int64
}

func newRangeServer(data []byte) *rangeServer {
	s := &rangeServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		http.ServeContent(&countingResponse{w, &s.bytes}, r, "events.parquet", time.Time{}, bytes.NewReader(data))
	}))
	return s
}

type countingResponse struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *countingResponse) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	return c.ResponseWriter.Write(p)
}

// httpReaderAt reads a URL with one range request per ReadAt.
type httpReaderAt struct{ url string }

func (h httpReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	req, err := http.NewRequest(http.MethodGet, h.url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", off, off+int64(len(p))-1))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent {
		return 0, fmt.Errorf("range request at %d: %s", off, resp.Status)
	}
	return io.ReadFull(resp.Body, p)
}

// queryOverHTTP reads the rows of data behind an HTTP range server with
// NewTReader and opts, requires them to be want, and returns the requests
// made and the bytes served.
func queryOverHTTP[T any, R interface {
	All() iter.Seq2[T, error]
}](t *testing.T, data []byte, want []T, open func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error), opts ...runtime.ReaderOption) (requests, served int64) {
	t.Helper()
	s := newRangeServer(data)
	defer s.Close()
	r, err := open(httpReaderAt{s.URL}, int64(len(data)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	if got := allRows(t, r.All()); !reflect.DeepEqual(got, want) {
		t.Fatalf("%d rows over HTTP, %d locally", len(got), len(want))
	}
	return s.requests.Load(), s.bytes.Load()
}

// TestFilterOverHTTP runs the window query against a file behind an HTTP
// range-request server, with and without read coalescing, and counts the
// requests and bytes served.
func TestFilterOverHTTP(t *testing.T) {
	const n = 300_000
	data := writeEvents(t, sortedEvents(n))
	t0, t1 := eventWindow(n)
	query := runtime.WithFilter(runtime.And(EventWhere.At.Between(t0, t1), EventWhere.Kind.Eq("buy")))
	want, _ := readEvents(t, data, query)
	run := func(opts ...runtime.ReaderOption) (requests, served int64) {
		t.Helper()
		return queryOverHTTP(t, data, want, NewEventReader, append(opts, query)...)
	}
	plainReq, plainBytes := run()
	coReq, coBytes := run(runtime.WithReadCoalescing(64<<10, 16<<20))
	t.Logf("%d-byte file, %d rows: %d requests for %d bytes; coalesced %d requests for %d bytes",
		len(data), len(want), plainReq, plainBytes, coReq, coBytes)
	if coReq*3 > plainReq || coReq > 12 {
		t.Errorf("coalescing made %d requests, %d without", coReq, plainReq)
	}
	if coBytes > int64(len(data))/10 {
		t.Errorf("coalescing fetched %d bytes of %d", coBytes, len(data))
	}
}

// TestFilterListOverHTTP runs a point query on the ids of 40,000 orders
// in pages of 1,000 rows behind an HTTP range server: the columns in
// lists and maps pass over the pages without a kept row by the offset
// index and the column index's level histograms, without a request for
// each skipped page's header. Before they did, the query made 372
// requests (79 coalesced); the bounds leave room for small changes of
// the file, not for a request per skipped page.
func TestFilterListOverHTTP(t *testing.T) {
	data := writeAll(t, orders(40_000), []runtime.WriterOption{runtime.WithPageRowLimit(1000)}, NewOrderWriter)
	query := runtime.WithFilter(OrderWhere.ID.Between(20_500, 21_499))
	want := readAllWith(t, data, 4096, NewOrderReader, query)
	if len(want) != 1000 || want[0].ID != 20_500 {
		t.Fatalf("%d rows, the first id %d", len(want), want[0].ID)
	}
	plain, _ := queryOverHTTP(t, data, want, NewOrderReader, query)
	coalesced, _ := queryOverHTTP(t, data, want, NewOrderReader, query, runtime.WithReadCoalescing(64<<10, 16<<20))
	t.Logf("%d-byte file: %d requests, coalesced %d", len(data), plain, coalesced)
	if plain > 160 || coalesced > 24 {
		t.Errorf("%d requests, coalesced %d: want at most 160 and 24", plain, coalesced)
	}
}
