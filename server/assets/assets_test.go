package assets

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
)

func gz(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func TestEngineServed(t *testing.T) {
	wasm := []byte("\x00asm\x01\x00\x00\x00 the engine")
	e, err := LoadEngine(fstest.MapFS{EngineFile: {Data: gz(t, wasm)}})
	if err != nil || e == nil {
		t.Fatalf("LoadEngine: %v, %v", e, err)
	}
	if !e.Serves(e.URL()) || e.Serves("/engine/other.wasm") {
		t.Fatalf("Serves(%q) wrong", e.URL())
	}
	tests := []struct {
		name, accept string
		gzipped      bool
	}{
		{"gzip", "gzip, deflate, br", true},
		{"any", "*", true},
		{"none", "", false},
		{"refused", "gzip;q=0, identity", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, e.URL(), nil)
			req.Header.Set("Accept-Encoding", tc.accept)
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			res := rec.Result()
			if res.Header.Get("Content-Type") != "application/wasm" || res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Errorf("headers %v", res.Header)
			}
			body, _ := io.ReadAll(res.Body)
			if got := res.Header.Get("Content-Encoding") == "gzip"; got != tc.gzipped {
				t.Fatalf("gzipped %v, want %v", got, tc.gzipped)
			}
			if tc.gzipped {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				body, _ = io.ReadAll(zr)
			}
			if !bytes.Equal(body, wasm) {
				t.Fatalf("body %q, want %q", body, wasm)
			}
		})
	}
	req := httptest.NewRequest(http.MethodGet, e.URL(), nil)
	req.Header.Set("If-None-Match", `"`+e.URL()[len("/engine/"):len(e.URL())-len(".wasm")]+`"`)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("a revalidation got %d, want 304", rec.Code)
	}
}

func TestNoEngine(t *testing.T) {
	e, err := LoadEngine(fstest.MapFS{})
	if e != nil || err != nil {
		t.Fatalf("LoadEngine of a front end without an engine: %v, %v", e, err)
	}
	if e.Serves("/engine/x.wasm") {
		t.Fatal("a nil engine serves")
	}
}

func TestBookServed(t *testing.T) {
	cert := "magneton-proof v1\n# 1 positions\ngame tumbling-down\nrules capture=any\nposition x\n"
	b, err := LoadBook(fstest.MapFS{"certs/a.proof.gz": {Data: gz(t, []byte(cert))}, "certs/readme.txt": {Data: []byte("not a certificate")}})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	b.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/engine/book.json", nil))
	var list []struct{ Name, URL, Game, Rules string }
	if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil || len(list) != 1 {
		t.Fatalf("book.json %s: %v", rec.Body, err)
	}
	f := list[0]
	if f.Name != "a.proof.gz" || f.Game != "tumbling-down" || f.Rules != "capture=any" || !b.Serves(f.URL) || b.Serves("/engine/book/x/a.proof.gz") {
		t.Fatalf("listed %+v", f)
	}
	rec = httptest.NewRecorder()
	b.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, f.URL, nil))
	if !bytes.Equal(rec.Body.Bytes(), gz(t, []byte(cert))) || rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("the file answered %d bytes, %v", rec.Body.Len(), rec.Header())
	}
	if _, err := LoadBook(fstest.MapFS{"certs/b.proof.gz": {Data: gz(t, []byte("magneton-proof v1\n"))}}); err == nil {
		t.Error("a certificate without a game line was listed")
	}
}
