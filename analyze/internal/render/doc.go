// Package render writes what the reports show, whatever the report:
// numbers with thousands separators, shares and sizes (Int, Share,
// Bytes), Markdown (the Markdown writer and its escapes) and SVG charts
// (bar, column and sparkline charts, drawn by the HTML templates). It
// knows nothing of the dataset or of the reports' figures.
package render
