package offline

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/magneton-games/magneton/web"
)

const worker = "// the worker\nconst OFFLINE = { version: 'dev', files: [] };\nconsole.log(OFFLINE.version);\n"

func front() fstest.MapFS {
	return fstest.MapFS{
		"index.html":            {Data: []byte("<html>")},
		WorkerFile:              {Data: []byte(worker)},
		ManifestFile:            {Data: []byte(`{"name": "x"}`)},
		"js/app.js":             {Data: []byte("app")},
		"css/app.css":           {Data: []byte("css")},
		"engine/engine.wasm.gz": {Data: []byte("wasm")},
		"engine/worker.js":      {Data: []byte("worker")},
	}
}

func pages(m map[string][]byte) func() (map[string][]byte, error) {
	return func() (map[string][]byte, error) { return m, nil }
}

// served is the worker as the server sends it, with the OFFLINE it was
// given.
func served(t *testing.T, o *Offline) (string, offlineData) {
	t.Helper()
	w := httptest.NewRecorder()
	o.ServeHTTP(w, httptest.NewRequest(http.MethodGet, WorkerPath, nil))
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/javascript") || w.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("the worker: %d %v", w.Code, w.Header())
	}
	body := w.Body.String()
	m := regexp.MustCompile(`(?m)^const OFFLINE = (.*);$`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no OFFLINE line in %s", body)
	}
	var d offlineData
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("OFFLINE: %v", err)
	}
	return body, d
}

// TestWorker checks the worker's list: the page as "/", every file but
// the page, the worker, the engine's packed file (the hashed URL instead),
// and its version, which every file, the page in each language and the
// engine's name change.
func TestWorker(t *testing.T) {
	cfg := Config{Static: front(), Pages: pages(map[string][]byte{"en": []byte("en"), "es": []byte("es")}), Engine: "/engine/abc.wasm", PagePattern: "^/$"}
	body, d := served(t, New(cfg))
	want := []string{"/", "/css/app.css", "/engine/worker.js", "/js/app.js", "/manifest.webmanifest", "/engine/abc.wasm"}
	if !slices.Equal(d.Files, want) {
		t.Errorf("files %q, want %q", d.Files, want)
	}
	if !slices.Equal(d.Data, DataURLs) || d.Pages != "^/$" || len(d.Version) != 16 {
		t.Errorf("OFFLINE %+v", d)
	}
	if !strings.HasPrefix(body, "// the worker\n") || !strings.HasSuffix(body, ";\nconsole.log(OFFLINE.version);\n") {
		t.Errorf("the rest of the worker changed:\n%s", body)
	}
	versions := map[string]string{"as it is": d.Version}
	change := func(what string, edit func(*Config)) {
		c := cfg
		c.Static = front()
		edit(&c)
		_, d := served(t, New(c))
		for other, v := range versions {
			if v == d.Version {
				t.Errorf("%s: the same version as %s", what, other)
			}
		}
		versions[what] = d.Version
	}
	change("a module", func(c *Config) { c.Static.(fstest.MapFS)["js/app.js"] = &fstest.MapFile{Data: []byte("app 2")} })
	change("a new file", func(c *Config) { c.Static.(fstest.MapFS)["js/new.js"] = &fstest.MapFile{Data: []byte("new")} })
	change("the engine's file", func(c *Config) {
		c.Static.(fstest.MapFS)["engine/engine.wasm.gz"] = &fstest.MapFile{Data: []byte("wasm 2")}
	})
	change("the Spanish page", func(c *Config) { c.Pages = pages(map[string][]byte{"en": []byte("en"), "es": []byte("es 2")}) })
	change("the engine's name", func(c *Config) { c.Engine = "/engine/def.wasm" })
	if _, d := served(t, New(cfg)); d.Version != versions["as it is"] {
		t.Errorf("the same files made the version %s, then %s", versions["as it is"], d.Version)
	}

	w := httptest.NewRecorder()
	New(cfg).ServeHTTP(w, httptest.NewRequest(http.MethodGet, ManifestPath, nil))
	if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/manifest+json" || w.Body.String() != `{"name": "x"}` {
		t.Errorf("the manifest: %d %v %q", w.Code, w.Header(), w.Body.String())
	}
}

// TestSiteWorker checks the site's own worker and manifest: every file of
// the front end the pages use is precached, and the manifest says what
// Chromium's install asks (a name, the start, standalone, icons of 192
// and 512 pixels that are in the front end).
func TestSiteWorker(t *testing.T) {
	o := New(Config{Static: web.Files, Pages: pages(map[string][]byte{"en": []byte("en")}), Engine: "/engine/x.wasm", PagePattern: "^/$"})
	_, d := served(t, o)
	err := fs.WalkDir(web.Files, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || slices.Contains(notCached, p) {
			return err
		}
		if !slices.Contains(d.Files, "/"+p) {
			t.Errorf("the worker does not precache %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"/", "/js/app.js", "/js/i18n/eo.js", "/js/games/magneton.js", "/engine/worker.js", "/engine/wasm_exec.js", "/engine/x.wasm"} {
		if !slices.Contains(d.Files, f) {
			t.Errorf("the worker does not precache %s", f)
		}
	}
	b, err := fs.ReadFile(web.Files, ManifestFile)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Name, ShortName, StartURL, Scope, Display string
		Icons                                     []struct{ Src, Sizes, Type, Purpose string }
	}
	if err := json.Unmarshal([]byte(strings.NewReplacer(`"short_name"`, `"ShortName"`, `"start_url"`, `"StartURL"`).Replace(string(b))), &m); err != nil {
		t.Fatal(err)
	}
	if m.Name == "" || m.ShortName == "" || m.StartURL != "/" || m.Scope != "/" || m.Display != "standalone" {
		t.Errorf("the manifest %+v", m)
	}
	sizes := map[string]bool{}
	for _, ic := range m.Icons {
		if _, err := fs.Stat(web.Files, strings.TrimPrefix(ic.Src, "/")); err != nil {
			t.Errorf("the manifest's icon %s: %v", ic.Src, err)
		}
		if ic.Type == "image/png" && ic.Purpose == "" {
			sizes[ic.Sizes] = true
		}
	}
	if !sizes["192x192"] || !sizes["512x512"] {
		t.Errorf("the manifest's PNG icons are %v, want 192x192 and 512x512", sizes)
	}
}
