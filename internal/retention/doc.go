// Package retention removes screenshots and UI dumps from the blob store
// once no goal that could reference them is still kept by Temporal. The
// worker runs a Collector periodically (blobs.gc_interval) and logs and
// counts the bytes each pass frees. The rule is in docs/design.md §12.
package retention
