// Reads the SGF files tengen wrote with @sabaki/sgf and compares them with the manifest.
// Usage: node check_sabaki.js MANIFEST.json. Prints "N passed, M failed"; exit 1 on failure.
'use strict'
const fs = require('fs')
const path = require('path')
const sgf = require('@sabaki/sgf')

function one(data, key) {
  return data[key] === undefined ? null : data[key][0]
}

function check(entry, dir) {
  const [root] = sgf.parse(fs.readFileSync(path.join(dir, entry.file), 'utf8'))
  const d = root.data
  const problems = []
  if (Number(one(d, 'SZ')) !== entry.size) problems.push(`size ${one(d, 'SZ')}`)
  if (Number(one(d, 'KM')) !== entry.komi) problems.push(`komi ${one(d, 'KM')}`)
  if (Number(one(d, 'HA') || 0) !== entry.handicap) problems.push(`handicap ${one(d, 'HA')}`)
  if (one(d, 'RE') !== entry.result) problems.push(`result ${one(d, 'RE')}`)
  if (one(d, 'PB') !== entry.black || one(d, 'PW') !== entry.white) problems.push(`players ${one(d, 'PB')}/${one(d, 'PW')}`)
  const setup = key => (d[key] || []).flatMap(v => sgf.parseCompressedVertices(v).map(sgf.stringifyVertex)).sort()
  if (JSON.stringify(setup('AB')) !== JSON.stringify([...entry.black_setup].sort())) problems.push('black setup stones differ')
  if (JSON.stringify(setup('AW')) !== JSON.stringify([...entry.white_setup].sort())) problems.push('white setup stones differ')
  const moves = []
  for (let node = root.children[0]; node; node = node.children[0]) {
    for (const c of ['B', 'W']) if (node.data[c]) moves.push([c, node.data[c][0]])
  }
  if (JSON.stringify(moves) !== JSON.stringify(entry.moves)) problems.push('moves differ')
  return problems
}

const manifest = process.argv[2]
const entries = JSON.parse(fs.readFileSync(manifest, 'utf8'))
let failed = 0
for (const entry of entries) {
  let problems
  try {
    problems = check(entry, path.dirname(manifest))
  } catch (e) {
    problems = [String(e)]
  }
  if (problems.length) {
    failed++
    console.log(`sabaki: ${entry.file}: ${problems.join('; ')}`)
  }
}
console.log(`sabaki: ${entries.length - failed} passed, ${failed} failed`)
process.exit(failed || !entries.length ? 1 : 0)
