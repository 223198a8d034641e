package web

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// favicon is static/favicon.svg, whose drawing the PNG icons repeat: a
// rounded square and two stones, a white one and a black one ringed.
const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#262421"/><circle cx="11" cy="16" r="7" fill="#f4f1ea"/><circle cx="22" cy="16" r="7" fill="#1f1d1a" stroke="#9a9387" stroke-width="1.5"/></svg>`

// icons are the web app manifest's PNG icons (Chromium installs a site
// whose manifest has a 192 and a 512 pixel one): the favicon's drawing,
// and a maskable one whose drawing fits the safe zone (the middle 80%) on
// a square that fills the whole icon.
var icons = []struct {
	file     string
	size     int
	maskable bool
}{
	{"icons/icon-192.png", 192, false},
	{"icons/icon-512.png", 512, false},
	{"icons/maskable-512.png", 512, true},
}

// iconColour is the favicon's colour at (x, y) of its 32 × 32 box, and
// whether anything is drawn there; maskable fills the whole square and
// draws the stones smaller, about the middle.
func iconColour(x, y float64, maskable bool) (color.NRGBA, bool) {
	in := func(cx, cy, r float64) bool { return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r }
	scale := 1.0
	if maskable {
		scale = 0.72
	} else if !roundedSquare(x, y, 32, 6) {
		return color.NRGBA{}, false
	}
	sx, sy := 16+(x-16)/scale, 16+(y-16)/scale // the point in the stones' own box
	x, y = sx, sy
	switch {
	case in(22, 16, 7.75) && !in(22, 16, 6.25):
		return color.NRGBA{0x9a, 0x93, 0x87, 0xff}, true
	case in(22, 16, 7):
		return color.NRGBA{0x1f, 0x1d, 0x1a, 0xff}, true
	case in(11, 16, 7):
		return color.NRGBA{0xf4, 0xf1, 0xea, 0xff}, true
	}
	return color.NRGBA{0x26, 0x24, 0x21, 0xff}, true
}

// roundedSquare reports whether (x, y) is inside a side × side square with
// corners of radius r.
func roundedSquare(x, y, side, r float64) bool {
	if x < 0 || y < 0 || x > side || y > side {
		return false
	}
	cx := min(max(x, r), side-r)
	cy := min(max(y, r), side-r)
	return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r
}

// renderIcon draws the icon at size pixels, each the mean of 4 × 4 samples.
func renderIcon(size int, maskable bool) *image.NRGBA {
	const n = 4
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	unit := 32 / float64(size)
	for py := range size {
		for px := range size {
			var r, g, b, a int
			for sy := range n {
				for sx := range n {
					c, ok := iconColour((float64(px)+(float64(sx)+0.5)/n)*unit, (float64(py)+(float64(sy)+0.5)/n)*unit, maskable)
					if !ok {
						continue
					}
					r, g, b, a = r+int(c.R), g+int(c.G), b+int(c.B), a+1
				}
			}
			if a > 0 {
				img.SetNRGBA(px, py, color.NRGBA{uint8(r / a), uint8(g / a), uint8(b / a), uint8(a * 255 / (n * n))})
			}
		}
	}
	return img
}

// TestIcons checks that the PNG icons are the favicon's drawing; with
// UPDATE_ICONS=1 it draws them (go test ./web -run Icons).
func TestIcons(t *testing.T) {
	svg, err := fs.ReadFile(Files, "favicon.svg")
	if err != nil {
		t.Fatal(err)
	}
	if string(bytes.TrimSpace(svg)) != favicon {
		t.Fatalf("favicon.svg changed: draw its change in iconColour, put it in favicon, and run UPDATE_ICONS=1 go test ./web -run Icons")
	}
	for _, ic := range icons {
		want := renderIcon(ic.size, ic.maskable)
		if os.Getenv("UPDATE_ICONS") != "" {
			var buf bytes.Buffer
			enc := png.Encoder{CompressionLevel: png.BestCompression}
			if err := enc.Encode(&buf, want); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("static", ic.file), buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := fs.ReadFile(Files, ic.file)
		if err != nil {
			t.Fatalf("%v (UPDATE_ICONS=1 go test ./web -run Icons draws it)", err)
		}
		got, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", ic.file, err)
		}
		if got.Bounds() != want.Bounds() {
			t.Fatalf("%s is %v, want %d × %d", ic.file, got.Bounds().Size(), ic.size, ic.size)
		}
		for y := range ic.size {
			for x := range ic.size {
				if color.NRGBAModel.Convert(got.At(x, y)) != want.NRGBAAt(x, y) {
					t.Fatalf("%s differs from the favicon's drawing at (%d, %d): UPDATE_ICONS=1 go test ./web -run Icons draws it again", ic.file, x, y)
				}
			}
		}
	}
}
