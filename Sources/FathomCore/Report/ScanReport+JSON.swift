/// The report as JSON (what `report.json` holds). Lengths in meters, times in seconds from the first
/// frame, angles in radians; floats are the shortest text that reads back as the same Float, and a value
/// that is not finite is null.
extension ScanReport {
    public func json() -> String {
        var o = JSONObject()
        o["scan_id"] = scanID.map(JSONObject.string) ?? "null"
        o["frames"] = "\(frames)"
        o["fused_frames"] = "\(fusedFrames)"
        o["duration"] = JSONObject.number(duration)
        o["box"] = box.map { box in
            var b = JSONObject()
            b["center"] = JSONObject.vector(box.center)
            b["scale"] = JSONObject.vector(box.scale)
            b["rot_y"] = JSONObject.number(box.rotY)
            b["floor"] = box.floor.map(JSONObject.number) ?? "null"
            b["corners"] = "[" + box.corners.map(JSONObject.vector).joined(separator: ",") + "]"
            return b.text
        } ?? "null"
        o["box_source"] = JSONObject.string(boxSource.name)
        o["floor"] = floor.map(ScanReport.surfaceJSON) ?? "null"
        o["support"] = support.map(ScanReport.surfaceJSON) ?? "null"
        o["ceiling"] = ceiling.map(ScanReport.surfaceJSON) ?? "null"
        o["room_height"] = roomHeight.map(JSONObject.number) ?? "null"
        o["focus"] = focus.map(JSONObject.vector) ?? "null"
        o["orbit"] = orbit.map { orbit in
            var b = JSONObject()
            b["focus"] = JSONObject.vector(orbit.focus)
            b["views"] = "\(orbit.views)"
            b["span"] = JSONObject.number(orbit.span)
            b["radius"] = JSONObject.number(orbit.radius)
            b["rms"] = JSONObject.number(orbit.rms)
            return b.text
        } ?? "null"
        o["object_capture"] = "\(objectCapture)"
        o["object_voxels"] = "\(objectVoxels)"
        o["object_reason"] = objectReason.map(JSONObject.string) ?? "null"
        o["cloud_points"] = "\(cloud.count)"
        o["object_points"] = "\(object.count)"
        o["trajectory"] = trajectory.map { t in
            var b = JSONObject()
            b["duration"] = JSONObject.number(t.duration)
            b["path_length"] = JSONObject.number(t.pathLength)
            b["speed_p10"] = JSONObject.number(t.speedP10)
            b["speed_p50"] = JSONObject.number(t.speedP50)
            b["speed_p90"] = JSONObject.number(t.speedP90)
            b["speed_max"] = JSONObject.number(t.speedMax)
            b["time_too_slow"] = JSONObject.number(t.timeTooSlow)
            b["time_too_fast"] = JSONObject.number(t.timeTooFast)
            b["angular_speed_max"] = JSONObject.number(t.angularSpeedMax)
            b["steps"] = "\(t.steps)"
            return b.text
        } ?? "null"
        var speed = JSONObject()
        speed["time"] = JSONObject.array(times.map(JSONObject.number))
        speed["speed"] = JSONObject.array(motion.map { JSONObject.number($0.speed) })
        speed["angular_speed"] = JSONObject.array(motion.map { JSONObject.number($0.angularSpeed) })
        speed["guidance"] = JSONObject.array(motion.map { JSONObject.string(ScanReport.guidanceNames[Int($0.guidance.rawValue)]) })
        speed["slow_speed"] = JSONObject.number(speedLimits.slow)
        speed["fast_speed"] = JSONObject.number(speedLimits.fast)
        speed["slightly"] = JSONObject.number(speedLimits.slightly)
        o["speed"] = speed.text
        o["camera_positions"] = JSONObject.array(cameraPositions.map(JSONObject.vector))
        o["coverage"] = coverage.map { c in
            var b = JSONObject()
            b["faces"] = JSONObject.array(zip(Box.faceNames, c.faces).map { name, f in
                var face = JSONObject()
                face["name"] = JSONObject.string(name)
                face["count"] = "\(f.count)"
                face["progress"] = JSONObject.number(f.progress)
                face["color"] = JSONObject.vector(f.color)
                face["opacity"] = JSONObject.number(f.opacity)
                face["complete"] = "\(f.complete)"
                face["needed"] = "\(f.needed)"
                return face.text
            })
            b["views"] = "\(c.views)"
            b["counted"] = "\(c.counted)"
            b["faces_complete"] = "\(c.facesComplete)"
            b["faces_needed"] = "\(c.facesNeeded)"
            b["complete"] = "\(c.complete)"
            b["angular_score"] = JSONObject.number(c.angularScore)
            b["goal"] = "\(c.goal)"
            b["bins"] = JSONObject.array(c.bins.map { "\($0)" })
            b["rings"] = "\(c.rings)"
            b["sectors"] = "\(c.sectors)"
            b["hemisphere"] = "\(c.hemisphere)"
            b["next_view"] = c.nextView.map { v in
                var n = JSONObject()
                n["direction"] = JSONObject.vector(v.direction)
                n["position"] = JSONObject.vector(v.position)
                return n.text
            } ?? "null"
            return b.text
        } ?? "null"
        o["captures"] = JSONObject.array(captures.map { "\($0)" })
        o["selected_frames"] = JSONObject.array(selected.map { "\($0)" })
        o["warnings"] = JSONObject.array(warnings.map(JSONObject.string))
        return o.text
    }

    /// A horizontal surface: height (world y, meters), unit normal, inliers (voxels) and their RMS distance
    /// (meters), footprint area (m^2) and x-z bounds, and the fraction of its samples seen from above.
    static func surfaceJSON(_ s: HorizontalSurface) -> String {
        var b = JSONObject()
        b["height"] = JSONObject.number(s.height)
        b["normal"] = JSONObject.vector(s.normal)
        b["inliers"] = "\(s.inliers)"
        b["rms"] = JSONObject.number(s.rms)
        b["area"] = JSONObject.number(s.area)
        b["extent_min"] = "[" + JSONObject.number(s.minXZ.x) + "," + JSONObject.number(s.minXZ.y) + "]"
        b["extent_max"] = "[" + JSONObject.number(s.maxXZ.x) + "," + JSONObject.number(s.maxXZ.y) + "]"
        b["seen_from_above"] = JSONObject.number(s.seenFromAbove)
        return b.text
    }

    /// Names of `Guidance` values in the JSON.
    public static let guidanceNames = ["unknown", "too_slow", "slightly_slow", "ok", "slightly_fast", "too_fast"]
}
