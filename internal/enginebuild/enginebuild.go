// Package enginebuild builds the browser's engine: package engine/wasm
// compiled with GOOS=js GOARCH=wasm, gzipped into
// web/static/engine/engine.wasm.gz beside the Go toolchain's
// wasm_exec.js that loads it and engine.json, its stamp (the hash of the
// sources it was built from, the Go version, its sizes). The front end
// embeds them like the rest of its files, so that `go build` of the
// binary needs no step of its own; `go generate ./web` (tools/buildengine)
// rebuilds them, and the tests fail when the sources changed since
// (TestCommittedEngineCurrent).
package enginebuild

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Package is the engine's main package; Dir the front end's folder that
// holds the build, both relative to the module's root.
const (
	Package = "./engine/wasm"
	Dir     = "web/static/engine"
)

// MaxGzip is the most the engine may weigh gzipped: the page loads it on
// a phone's connection (issue 29 asks at most 1.5 MB).
const MaxGzip = 1_500_000

// Stamp is engine.json: what the committed build was made from.
type Stamp struct {
	// Sources is the hash of the engine's Go files and embedded files,
	// every package of the module it imports (Sources).
	Sources string `json:"sources"`
	Go      string `json:"go"`
	// Size and Gzip are the engine's bytes, plain and gzipped; SHA256
	// the gzipped file's hash, whose first 16 digits name it on the
	// server (a new build is a new name, so caches keep each for ever).
	Size   int    `json:"size"`
	Gzip   int    `json:"gzip"`
	SHA256 string `json:"sha256"`
}

// Build is one build of the engine.
type Build struct {
	Stamp    Stamp
	Gz       []byte // engine.wasm.gz
	WasmExec []byte // the toolchain's wasm_exec.js
}

// goEnv is the environment of the engine's go commands.
func goEnv() []string {
	return append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
}

// Sources hashes the engine's sources under the module root: the Go and
// embedded files of every package of the module that the engine's build
// compiles, with their paths.
func Sources(ctx context.Context, root string) (string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-json=ImportPath,Dir,GoFiles,EmbedFiles,Module", Package)
	cmd.Dir, cmd.Env = root, goEnv()
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %w%s", Package, err, stderr(err))
	}
	var files []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			Dir                 string
			GoFiles, EmbedFiles []string
			Module              *struct{ Main bool }
		}
		if err := dec.Decode(&p); err != nil {
			return "", fmt.Errorf("go list: %w", err)
		}
		if p.Module == nil || !p.Module.Main {
			continue // the standard library: the Go version's
		}
		for _, f := range append(p.GoFiles, p.EmbedFiles...) {
			rel, err := filepath.Rel(root, filepath.Join(p.Dir, f))
			if err != nil {
				return "", err
			}
			files = append(files, filepath.ToSlash(rel))
		}
	}
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Make builds the engine from the module at root.
func Make(ctx context.Context, root string) (*Build, error) {
	src, err := Sources(ctx, root)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "engine-wasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "engine.wasm")
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, Package)
	cmd.Dir, cmd.Env = root, goEnv()
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build %s for js/wasm: %w\n%s", Package, err, b)
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	gz, err := Gzip(wasm)
	if err != nil {
		return nil, err
	}
	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	exe, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return nil, fmt.Errorf("the toolchain's wasm_exec.js: %w", err)
	}
	version, err := exec.CommandContext(ctx, "go", "env", "GOVERSION").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOVERSION: %w", err)
	}
	sum := sha256.Sum256(gz)
	return &Build{
		Stamp:    Stamp{Sources: src, Go: strings.TrimSpace(string(version)), Size: len(wasm), Gzip: len(gz), SHA256: hex.EncodeToString(sum[:])},
		Gz:       gz,
		WasmExec: exe,
	}, nil
}

// Gzip compresses b at the best level, with no name or time in the
// header, so that the same bytes give the same file.
func Gzip(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write puts a build into Dir under root.
func (b *Build) Write(root string) error {
	dir := filepath.Join(root, Dir)
	stamp, _ := json.MarshalIndent(b.Stamp, "", "  ")
	for name, data := range map[string][]byte{"engine.wasm.gz": b.Gz, "wasm_exec.js": b.WasmExec, "engine.json": append(stamp, '\n')} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Committed reads the stamp of the build in Dir under root.
func Committed(root string) (Stamp, error) {
	var s Stamp
	b, err := os.ReadFile(filepath.Join(root, Dir, "engine.json"))
	if err != nil {
		return s, err
	}
	err = json.Unmarshal(b, &s)
	return s, err
}

func stderr(err error) string {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		return ": " + strings.TrimSpace(string(ee.Stderr))
	}
	return ""
}
