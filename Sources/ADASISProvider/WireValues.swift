import ADASISv2
import RoadMap

/// Map attributes → ADASIS field codes.
enum WireValues {
    static func yesNo(_ value: Bool?) -> YesNo {
        switch value {
        case true?: return .yes
        case false?: return .no
        case nil: return .unknown
        }
    }

    static func formOfWay(_ form: RoadMap.FormOfWay) -> ADASISv2.FormOfWay {
        switch form {
        case .unknown: return .unknown
        case .freeway: return .freeway
        case .multipleCarriageway: return .multipleCarriageway
        case .singleCarriageway: return .singleCarriageway
        case .roundabout: return .roundaboutCircle
        case .trafficSquare: return .trafficSquare
        case .parallelRoad: return .parallelRoad
        case .freewayRamp: return .freewayRamp
        case .ramp: return .ramp
        case .service: return .serviceRoad
        case .carParkAccess: return .carParkAccess
        case .serviceAreaAccess: return .serviceAreaAccess
        case .pedestrianZone: return .pedestrianZone
        }
    }

    static func speedLimit(_ limit: SpeedLimit, units: SpeedUnits) -> (code: UInt8, type: SpeedLimitType) {
        let code: UInt8
        switch limit.value {
        case .unknown: code = 0
        case .unlimited: code = ValueCoding.speedLimitCode(kilometresPerHour: .infinity, units: units)
        case .kilometresPerHour(let kmh): code = ValueCoding.speedLimitCode(kilometresPerHour: kmh, units: units)
        }
        let type: SpeedLimitType
        switch limit.kind {
        case .implicit: type = .implicit
        case .explicit: type = .explicit
        case .timeDependent: type = .timeOfDay
        case .unknown: type = .unknown
        }
        return (code, type)
    }

    /// 3-bit lanes in the driving direction: 1…5, 6 = six or more, 7 N/A.
    static func drivingLanes(_ lanes: UInt8?) -> UInt8 {
        guard let lanes, lanes > 0 else { return 7 }
        return min(6, lanes)
    }

    /// 2-bit lanes in the opposite direction: 0 one-way, 1 one lane, 2 two or more, 3 N/A.
    static func oppositeLanes(_ lanes: UInt8?) -> UInt8 {
        guard let lanes else { return 3 }
        return min(2, lanes)
    }
}
