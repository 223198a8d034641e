package book

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmbeddedCertificates: the book's certificates are docs/proofs', one
// for one and byte for byte. UPDATE_BOOK=1 writes them anew.
func TestEmbeddedCertificates(t *testing.T) {
	docs, err := filepath.Glob("../docs/proofs/*.proof")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no certificates in docs/proofs: %v", err)
	}
	if os.Getenv("UPDATE_BOOK") != "" {
		old, _ := filepath.Glob("certs/*.proof.gz")
		for _, f := range old {
			os.Remove(f)
		}
		for _, d := range docs {
			writeGzip(t, d, filepath.Join("certs", filepath.Base(d)+".gz"))
		}
	}
	embedded, _ := filepath.Glob("certs/*.proof.gz")
	if len(embedded) != len(docs) {
		t.Errorf("the book has %d certificates, docs/proofs %d (UPDATE_BOOK=1 go test ./book writes them)", len(embedded), len(docs))
	}
	for _, d := range docs {
		want, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		gz := filepath.Join("certs", filepath.Base(d)+".gz")
		f, err := os.Open(gz)
		if err != nil {
			t.Errorf("%s is not in the book (UPDATE_BOOK=1 go test ./book writes it): %v", d, err)
			continue
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s: %v", gz, err)
		}
		got, err := io.ReadAll(zr)
		f.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (UPDATE_BOOK=1 go test ./book writes it anew)", gz, d)
		}
	}
	for _, e := range embedded {
		if _, err := os.Stat(filepath.Join("../docs/proofs", strings.TrimSuffix(filepath.Base(e), ".gz"))); err != nil {
			t.Errorf("%s has no certificate in docs/proofs", e)
		}
	}
}

func writeGzip(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
