/// A horizontal run of inside mask pixels: row `y`, columns [x0, x1).
struct MaskRun: Equatable {
    var y: Int, x0: Int, x1: Int
}

/// The object a mask outlines: its largest connected region, as runs sorted by row and column. Pixels with at
/// most `gap` empty pixels between them (Chebyshev distance <= gap + 1) connect, so the loose pixels of a ragged
/// edge and a narrow part cut by it stay with the body while stray pixels and blobs further away are left out.
public struct MaskBody: Sendable {
    let runs: [MaskRun]
    /// Inside pixels of the body.
    public let pixels: Int
    let width: Int, height: Int
    /// runs[rowStart[y] ..< rowStart[y + 1]] lie in row y.
    private let rowStart: [Int]

    init(runs: [MaskRun], width: Int, height: Int) {
        self.runs = runs
        self.width = width
        self.height = height
        pixels = runs.reduce(0) { $0 + $1.x1 - $1.x0 }
        var start = [Int](repeating: runs.count, count: height + 1)
        for (index, run) in runs.enumerated().reversed() { start[run.y] = index }
        for y in stride(from: height - 1, through: 0, by: -1) where start[y] > start[y + 1] { start[y] = start[y + 1] }
        rowStart = start
    }

    /// The body's runs in row y.
    func runs(inRow y: Int) -> ArraySlice<MaskRun> { runs[rowStart[y]..<rowStart[y + 1]] }

    /// Whether pixel (x, y) of the mask belongs to the body.
    func contains(_ x: Int, _ y: Int) -> Bool {
        let row = runs(inRow: y)
        var low = row.startIndex, high = row.endIndex
        while low < high {  // the first run ending after x
            let mid = (low + high) / 2
            if row[mid].x1 <= x { low = mid + 1 } else { high = mid }
        }
        return low < row.endIndex && row[low].x0 <= x
    }
}

extension Mask {
    /// The body: the largest connected region (by pixels) of the inside pixels, bridging gaps of up to `gap`
    /// pixels (>= 0). Throws `.noData` for an empty mask.
    public func body(gap: Int) throws(FathomError) -> MaskBody {
        var runs: [MaskRun] = []
        var rowStart: [Int] = [0]
        rowStart.reserveCapacity(height + 1)
        for y in 0..<height {
            var x = 0
            while x < width {
                guard isInside(x, y) else { x &+= 1; continue }
                let x0 = x
                while x < width, isInside(x, y) { x &+= 1 }
                runs.append(MaskRun(y: y, x0: x0, x1: x))
            }
            rowStart.append(runs.count)
        }
        guard !runs.isEmpty else { throw FathomError(.noData, "the mask is empty") }
        var sets = DisjointSets(count: runs.count)
        for y in 0..<height {
            let current = rowStart[y]..<rowStart[y + 1]
            for index in current.dropFirst() where runs[index].x0 <= runs[index - 1].x1 + gap { sets.union(index, index - 1) }
            for above in max(0, y - gap - 1)..<y {
                joinRows(rowStart[above]..<rowStart[above + 1], current, runs, gap, &sets)
            }
        }
        var area = [Int](repeating: 0, count: runs.count)
        for (index, run) in runs.enumerated() { area[sets.find(index)] += run.x1 - run.x0 }
        let largest = area.indices.max { area[$0] < area[$1] }.map { sets.find($0) } ?? 0
        let kept = runs.indices.filter { sets.find($0) == largest }.map { runs[$0] }
        return MaskBody(runs: kept, width: width, height: height)
    }
}

/// Unions every pair of runs from two rows whose column ranges come within `gap` pixels of each other. Both
/// rows are sorted by column, so one sweep visits each run once plus each connected pair.
private func joinRows(_ upper: Range<Int>, _ lower: Range<Int>, _ runs: [MaskRun], _ gap: Int, _ sets: inout DisjointSets) {
    var first = upper.lowerBound
    for index in lower {
        let run = runs[index]
        while first < upper.upperBound, runs[first].x1 + gap < run.x0 { first += 1 }
        var other = first
        while other < upper.upperBound, runs[other].x0 <= run.x1 + gap {
            sets.union(index, other)
            other += 1
        }
    }
}

/// Union-find with path halving and union by size.
struct DisjointSets {
    private var parent: [Int]
    private var size: [Int]

    init(count: Int) {
        parent = Array(0..<count)
        size = [Int](repeating: 1, count: count)
    }

    mutating func find(_ x: Int) -> Int {
        var x = x
        while parent[x] != x {
            parent[x] = parent[parent[x]]
            x = parent[x]
        }
        return x
    }

    mutating func union(_ a: Int, _ b: Int) {
        var ra = find(a), rb = find(b)
        guard ra != rb else { return }
        if size[ra] < size[rb] { swap(&ra, &rb) }
        parent[rb] = ra
        size[ra] += size[rb]
    }
}
