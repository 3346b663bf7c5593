// Package uitree holds the UI element model shared by the device driver, the
// simulator and the executor prompt: uiautomator XML parsing and writing, and
// the compact one-line-per-element text list that goes into executor requests
// (and that the offline model server reads back).
package uitree
