// Package e2e holds the browser end-to-end tests of the play server and its
// front end: real Chromium tabs, driven with chromedp, play games through
// the web pages of a server started in the test.
package e2e
