package archive

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/magneton-games/magneton/server/jsonapi"
)

// The upload of record files into the archive (POST /api/archive/import)
// by a logged-in account, from the analysis board.
const (
	// MaxUpload bounds the files of one request together.
	MaxUpload = 4 << 20
	// MaxUploadFiles bounds the number of files of one request.
	MaxUploadFiles = 20
	// MaxUnpacked bounds what one uploaded file may unpack to (the
	// members of a zip archive).
	MaxUnpacked = 16 << 20
	// MaxUploadRecords bounds the records of one uploaded file: the
	// site's other writes wait while a file's transaction stores its
	// games (some 5 ms a game on SQLite). Bigger archives are for
	// magneton import.
	MaxUploadRecords = 1000
)

// ImportFileJSON is a file of records in a JSON request: its name and its
// content, as text or, for a zip archive, in base64.
type ImportFileJSON struct {
	Name   string `json:"name"`
	Text   string `json:"text,omitempty"`
	Base64 string `json:"base64,omitempty"`
}

// ImportRequestJSON is the JSON form of an upload.
type ImportRequestJSON struct {
	Files []ImportFileJSON `json:"files"`
}

// fileAnswer is what the import did with one file.
type fileAnswer struct {
	File       string       `json:"file"`
	Games      int          `json:"games"`
	Duplicates []Duplicate  `json:"duplicates"`
	Refused    *refusalJSON `json:"refused"`
}

// refusalJSON is why a file was refused.
type refusalJSON struct {
	Place
	Reason string `json:"reason"`
}

// importAnswer is the answer to an upload: each file's, and the totals.
type importAnswer struct {
	Files      []fileAnswer `json:"files"`
	Games      int          `json:"games"`
	Duplicates int          `json:"duplicates"`
	Refused    int          `json:"refused"`
}

// uploaded is one file of an upload.
type uploaded struct {
	name string
	data []byte
}

// handleImport imports the uploaded files of records into the archive,
// as the account's.
func (s *Service) handleImport(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		jsonapi.WriteError(w, http.StatusForbidden, jsonapi.CrossSite)
		return
	}
	u, err := s.cfg.Identities.User(r)
	if err != nil {
		jsonapi.Fail(w, r, s.cfg.Logger, err)
		return
	}
	if u == nil {
		jsonapi.WriteCoded(w, http.StatusUnauthorized, "upload_login", "log in to add games to the archive")
		return
	}
	if !s.cfg.Clients.AllowImport(u.ID) {
		lim := s.cfg.Clients.Limits()
		jsonapi.WriteCoded(w, http.StatusTooManyRequests, "upload_limit",
			fmt.Sprintf("too many imports: at most %g an hour; try again later", lim.ImportsPerHour), "per_hour", fmt.Sprint(lim.ImportsPerHour))
		return
	}
	files, ok := readUpload(w, r)
	if !ok {
		return
	}
	im := &Importer{Store: s.cfg.Store, ImportedBy: u.ID, MaxBytes: MaxUnpacked, MaxRecords: MaxUploadRecords}
	out := importAnswer{Files: []fileAnswer{}}
	for _, f := range files {
		res, err := im.ImportFile(r.Context(), f.name, bytes.NewReader(f.data), int64(len(f.data)))
		if err != nil {
			jsonapi.Fail(w, r, s.cfg.Logger, err)
			return
		}
		a := fileAnswer{File: f.name, Games: res.Games, Duplicates: res.Duplicates}
		if a.Duplicates == nil {
			a.Duplicates = []Duplicate{}
		}
		if res.Refused != nil {
			a.Refused = &refusalJSON{res.Refused.Place, res.Refused.Reason}
			out.Refused++
		}
		out.Games += res.Games
		out.Duplicates += len(res.Duplicates)
		out.Files = append(out.Files, a)
	}
	s.cfg.Logger.Info("records imported", "user", u.ID, "files", len(files), "games", out.Games, "duplicates", out.Duplicates, "refused", out.Refused)
	jsonapi.Write(w, http.StatusOK, out)
}

// readUpload reads the files of an upload: multipart/form-data with the
// files in fields named "file", or JSON (ImportRequestJSON). False when
// it has answered an error.
func readUpload(w http.ResponseWriter, r *http.Request) ([]uploaded, bool) {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	tooBig := func() {
		jsonapi.WriteCoded(w, http.StatusRequestEntityTooLarge, "upload_large",
			fmt.Sprintf("the files are over %d MiB together, the most one import takes", MaxUpload>>20), "max_mib", fmt.Sprint(MaxUpload>>20))
	}
	var files []uploaded
	switch ct {
	case "multipart/form-data":
		r.Body = http.MaxBytesReader(w, r.Body, MaxUpload+64<<10)
		mr, err := r.MultipartReader()
		if err != nil {
			jsonapi.WriteCoded(w, http.StatusBadRequest, "upload_form", "the upload cannot be read: "+err.Error(), "why", err.Error())
			return nil, false
		}
		total := 0
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				tooBig()
				return nil, false
			}
			if err != nil {
				jsonapi.WriteCoded(w, http.StatusBadRequest, "upload_form", "the upload cannot be read: "+err.Error(), "why", err.Error())
				return nil, false
			}
			if part.FormName() != "file" {
				part.Close()
				continue
			}
			data, err := io.ReadAll(io.LimitReader(part, int64(MaxUpload-total+1)))
			part.Close()
			if errors.As(err, &mbe) || total+len(data) > MaxUpload {
				tooBig()
				return nil, false
			}
			if err != nil {
				jsonapi.WriteCoded(w, http.StatusBadRequest, "upload_form", "the upload cannot be read: "+err.Error(), "why", err.Error())
				return nil, false
			}
			total += len(data)
			files = append(files, uploaded{fileName(part.FileName(), len(files)), data})
			if len(files) > MaxUploadFiles {
				break
			}
		}
	case "application/json":
		var req ImportRequestJSON
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxUpload*4/3+64<<10))
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			tooBig()
			return nil, false
		}
		if err == nil {
			err = json.Unmarshal(body, &req)
		}
		if err != nil {
			jsonapi.WriteError(w, http.StatusBadRequest, "bad JSON body: "+jsonapi.DecodeError(err))
			return nil, false
		}
		total := 0
		for i, f := range req.Files {
			data := []byte(f.Text)
			if f.Base64 != "" {
				if data, err = base64.StdEncoding.DecodeString(f.Base64); err != nil {
					jsonapi.WriteCoded(w, http.StatusBadRequest, "upload_form", fmt.Sprintf("file %d: base64: %v", i+1, err), "why", err.Error())
					return nil, false
				}
			}
			if total += len(data); total > MaxUpload {
				tooBig()
				return nil, false
			}
			files = append(files, uploaded{fileName(f.Name, i), data})
		}
	default:
		jsonapi.WriteError(w, http.StatusUnsupportedMediaType,
			fmt.Sprintf("the body must be multipart/form-data (files in fields named file) or JSON, not %q", r.Header.Get("Content-Type")))
		return nil, false
	}
	switch {
	case len(files) == 0:
		jsonapi.WriteCoded(w, http.StatusBadRequest, "upload_none", "no file to import: send the files in fields named file")
		return nil, false
	case len(files) > MaxUploadFiles:
		jsonapi.WriteCoded(w, http.StatusBadRequest, "upload_files",
			fmt.Sprintf("more than %d files: import at most %d at a time", MaxUploadFiles, MaxUploadFiles), "max", fmt.Sprint(MaxUploadFiles))
		return nil, false
	}
	return files, true
}

// fileName is the name an uploaded file is reported by: its base name,
// without control characters, at most 200 bytes; "file N" when it has
// none.
func fileName(name string, i int) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	name = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, name)
	for len(name) > 200 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" || name == "." || name == "/" {
		return fmt.Sprintf("file %d", i+1)
	}
	return name
}
