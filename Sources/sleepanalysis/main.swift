import Foundation
import SleepAnalysis

FileHandle.standardError.write(Data("usage: sleepanalysis <command> [options]\n".utf8))
exit(64)
