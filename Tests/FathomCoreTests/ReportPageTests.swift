import FathomCore
import Testing

/// The report read back from JSON and written as a page: units people read, and JSON that holds anything
/// (nulls, huge or negative numbers) gives a page or a clear error, never a trap.
@Suite struct ReportPageTests {
    /// A small report as report.json holds it: 3 frames, a floor, a box, coverage of 2 x 3 bins.
    static func json(rings: Int = 2, sectors: Int = 3, speed: String = "0.2", height: String = "-1.234", cloudPoints: Int = 2) -> String {
        let face = #"{"name":"front","count":4,"progress":0.4,"color":[0.6,1,0.4],"opacity":0.45,"complete":false,"needed":true}"#
        let bins = Array(repeating: "1", count: rings * sectors).joined(separator: ",")
        return """
        {"scan_id":"t<1>","frames":3,"fused_frames":2,"duration":1,
         "box":{"center":[0,0.1,0],"scale":[0.4,0.2,0.3],"rot_y":0.5,"floor":0,"corners":[]},"box_source":"fitted",
         "floor":{"height":\(height),"normal":[0,1,0],"inliers":100,"rms":0.004,"area":2.5,"extent_min":[-1,-1],"extent_max":[1,1],"seen_from_above":0.97},
         "support":null,"ceiling":null,"room_height":null,"focus":[0,0.1,0],
         "orbit":{"focus":[0,0.1,0],"views":3,"span":1.5708,"radius":0.8,"rms":0.01},
         "object_capture":true,"object_voxels":50,"object_reason":null,"cloud_points":\(cloudPoints),"object_points":1,
         "trajectory":{"duration":1,"path_length":0.3,"speed_p10":0.1,"speed_p50":0.2,"speed_p90":0.3,"speed_max":0.35,
                       "time_too_slow":0.5,"time_too_fast":0,"angular_speed_max":1,"steps":2},
         "speed":{"time":[0,0.5,1],"speed":[null,\(speed),0.3],"angular_speed":[null,1,1],"guidance":["unknown","ok","too_fast"],
                  "slow_speed":0.127,"fast_speed":0.254,"slightly":0.2},
         "camera_positions":[[0,1,1],[0.1,1,1],[0.2,1,1]],
         "coverage":{"faces":[\(Array(repeating: face, count: 6).joined(separator: ","))],"views":3,"counted":3,"faces_complete":0,
                     "faces_needed":5,"complete":false,"angular_score":0.5,"goal":10,"bins":[\(bins)],"rings":\(rings),
                     "sectors":\(sectors),"hemisphere":true,"next_view":null},
         "captures":[0,2],"selected_frames":[0,1],"warnings":["a <warning> & more"]}
        """
    }

    static let cloud = try! PointCloud(points: [0, 0, 0, 1, 0, 1])
    static let object = try! PointCloud(points: [0, 0, 0])

    @Test("the page: warnings escaped and first, lengths in cm, angles in degrees, every figure")
    func page() throws {
        let report = try ScanReport(json: Array(Self.json().utf8), cloud: Self.cloud, object: Self.object)
        let html = report.html()
        #expect(html.contains("<li class=\"warning\">a &lt;warning&gt; &amp; more</li>"))
        #expect(html.contains("<title>Fathom report: t&lt;1&gt;</title>"))
        let warning = try #require(html.firstRange(of: "id=\"warnings\"")), table = try #require(html.firstRange(of: "id=\"measurements\""))
        #expect(warning.lowerBound < table.lowerBound)
        // -1.234 m is -123.4 cm; 0.5 rad is 28.6 degrees, shown as 29; 1.5708 rad as 90.
        #expect(html.contains("data-key=\"floor_height\"><th>Floor height (y)</th><td class=\"value\" data-si=\"-1.234\">-123.4 cm</td>"))
        #expect(html.contains("data-si=\"0.5\">29°</td>") && html.contains("data-si=\"1.5708\">90°</td>"))
        #expect(html.contains("data-si=\"0.4\">40.0 cm</td>") && html.contains("data-si=\"0.2\">0.20 m/s</td>"))
        for id in ["fig-top", "fig-side", "fig-speed", "fig-coverage", "fig-bins"] { #expect(html.contains("<figure id=\"\(id)\">")) }
        #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("src=\""))
        // The JSON written again is the JSON read (the same numbers, the same order of fields).
        let again = try ScanReport(json: Array(report.json().utf8), cloud: Self.cloud, object: Self.object)
        #expect(again.json() == report.json() && again.html() == html)
        #expect(report.text().hasPrefix("warning: a <warning> & more\n"))
    }

    @Test("ReportText: printf's rounding, no negative zero")
    func units() {
        #expect(ReportText.centimetres(-0.0004) == "0.0 cm")
        #expect(ReportText.centimetres(0.0135) == "1.4 cm")  // 1.35000002 cm
        #expect(ReportText.degrees(.pi / 2) == "90°")
        #expect(ReportText.size(SIMD3(0.4, 0.3, 0.2)) == "40.0 x 30.0 x 20.0 cm")
        #expect(ReportText.percent(.nan) == "?%" && ReportText.percent(0.456) == "46%")
    }

    @Test("JSON that holds anything: a page or a clear error")
    func hostile() throws {
        let odd = [Self.json(speed: "null", height: "null"), Self.json(speed: "3e38", height: "-3e38"), Self.json(rings: 256, sectors: 16)]
        for text in odd {
            let report = try ScanReport(json: Array(text.utf8), cloud: Self.cloud, object: Self.object)
            #expect(report.html().hasSuffix("</html>\n"))
        }
        expectError(.format, containing: ["rings"]) { () throws(FathomError) in
            _ = try ScanReport(json: Array(Self.json(rings: 300, sectors: 1).utf8), cloud: Self.cloud, object: Self.object)
        }
        expectError(.format, containing: ["cloud"]) { () throws(FathomError) in
            _ = try ScanReport(json: Array(Self.json(cloudPoints: 5).utf8), cloud: Self.cloud, object: Self.object)
        }
        expectError(.parse) { () throws(FathomError) in _ = try ScanReport(json: Array("{".utf8), cloud: Self.cloud, object: Self.object) }
    }
}
