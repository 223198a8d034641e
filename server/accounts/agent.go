package accounts

import "strings"

// ShortAgent is a browser's User-Agent in short, as the list of an
// account's logged-in browsers shows it: the browser and its major
// version, and the system ("Firefox 128, Linux"; "Safari 17, iPhone"),
// or, for a User-Agent it does not read, its first 40 printable
// characters. Only this is kept, not the whole header.
func ShortAgent(ua string) string {
	browser := agentBrowser(ua)
	system := ""
	for _, s := range [][2]string{
		{"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Android", "Android"}, {"CrOS", "ChromeOS"},
		{"Windows", "Windows"}, {"Macintosh", "macOS"}, {"Mac OS X", "macOS"}, {"Linux", "Linux"},
	} {
		if strings.Contains(ua, s[0]) {
			system = s[1]
			break
		}
	}
	switch {
	case browser != "" && system != "":
		return browser + ", " + system
	case browser != "":
		return browser
	}
	out := strings.Map(func(r rune) rune {
		if r < ' ' || r > '~' {
			return -1
		}
		return r
	}, ua)
	if len(out) > 40 {
		out = out[:40]
	}
	return strings.TrimSpace(out)
}

// agentBrowser is the browser a User-Agent names, with its major version
// ("Chrome 126"), or "".
func agentBrowser(ua string) string {
	// The order matters: Edge and Opera also say Chrome, and Chrome also
	// says Safari.
	for _, b := range [][2]string{
		{"Edg/", "Edge"}, {"OPR/", "Opera"}, {"Firefox/", "Firefox"}, {"FxiOS/", "Firefox"},
		{"CriOS/", "Chrome"}, {"HeadlessChrome/", "Chrome"}, {"Chromium/", "Chromium"}, {"Chrome/", "Chrome"},
	} {
		if _, rest, ok := strings.Cut(ua, b[0]); ok {
			return withVersion(b[1], rest)
		}
	}
	if _, rest, ok := strings.Cut(ua, "Version/"); ok && strings.Contains(ua, "Safari/") {
		return withVersion("Safari", rest)
	}
	return ""
}

// withVersion is a browser's name and the major version that rest
// starts with, if any.
func withVersion(name, rest string) string {
	n := 0
	for n < len(rest) && n < 4 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 {
		return name
	}
	return name + " " + rest[:n]
}
