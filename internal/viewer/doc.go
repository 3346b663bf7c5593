// Package viewer shows what a goal's phone did: a page per goal with every
// Step of every todo in order — the screenshot the executor saw, a marker
// where its tap or swipe lands, its reasoning, the action, the result,
// timing, tokens, and whether the step was retried, replayed, approved or
// corrected — with questions and answers inline. It reads the goal's and
// its todos' histories through a Temporal client (decoding encrypted
// payloads with the configured converter) and the screenshots from the
// blob store. Pages are Go templates embedded in the binary; a few lines of
// inline script poll for new steps while the goal runs, with no build step
// and nothing fetched from elsewhere. The same reading yields the event
// stream of `starter run --events` (Events).
package viewer
