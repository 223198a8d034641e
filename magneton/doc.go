// Package magneton is an exact, fast rules engine for Magneton (Luca
// Cerrato, 2001): twelve stones a side are dropped on an empty 8x8 board and
// then moved; every stone dropped or moved pulls the nearest enemy stone and
// pushes the nearest friendly one along each of the eight lines, and a line
// of four made by that magnetic effect wins. docs/rules/magneton.md gives
// the rules for players, every rule option, the notation and the position
// text.
//
// Positions are four machine words (copy-make): Play returns a new Position
// and the old one stays valid, and neither AppendMoves, RandomMove nor Play
// allocates. The magnetic effect and the move generator are table- and
// bitboard-driven (lines.go, fill.go); a slow direct implementation in the
// tests checks them under every rule option. The package implements
// game.Position, so the project's generic perft, searches and game records
// drive it like any other game. It imports nothing of the project but game.
package magneton
